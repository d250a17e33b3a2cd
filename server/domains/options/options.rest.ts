import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionRegistry } from '../../../shared/options.ts';
import { raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/**
 * new-api decodes `{key, value}` into two Go strings: a null or absent value is "" (a blank
 * setting the console sends without a value), any other type does not decode (HTTP 400
 * "无效的参数"). The service refuses an empty key.
 */
export const updateOptionInput = z.object({
  key: z.string({ message: '无效的参数' }),
  value: z.string({ message: '无效的参数' }),
});

export function registerOptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { options } = deps.services;

  restRoute(app, deps, 'GET', '/api/option/', { auth: 'root' }, () => options.list());

  // Only a body that does not decode keeps its 400; a refused value answers 200 with the reason,
  // which new-api's console shows (it shows nothing useful for a 400).
  restRoute(
    app,
    deps,
    'PUT',
    '/api/option/',
    { auth: 'root', body: updateOptionInput, realStatus: 'decode' },
    async ({ body }) => {
      await options.update(body.key, body.value);
      return undefined;
    },
  );

  restRoute(app, deps, 'POST', '/api/option/rest_model_ratio', { auth: 'root' }, async () => {
    await options.update('ModelRatio', optionRegistry.ModelRatio.default);
    return raw({ success: true, message: '重置模型倍率成功' });
  });
}
