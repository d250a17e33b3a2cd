import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionRegistry } from '../../../shared/options.ts';
import { raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/** `value` must be a string, as in new-api (other types answer HTTP 400 "无效的参数"). */
export const updateOptionInput = z.object({
  key: z.string({ message: '无效的参数' }).min(1, '无效的参数'),
  value: z.string({ message: '无效的参数' }),
});

export function registerOptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { options } = deps.services;

  restRoute(app, deps, 'GET', '/api/option/', { auth: 'root' }, () => options.list());

  restRoute(app, deps, 'PUT', '/api/option/', { auth: 'root', realStatus: true }, async ({ req }) => {
    const parsed = updateOptionInput.safeParse(req.body);
    if (!parsed.success) return raw({ success: false, message: '无效的参数' }, 400);
    await options.update(parsed.data.key, parsed.data.value);
    return undefined;
  });

  restRoute(app, deps, 'POST', '/api/option/rest_model_ratio', { auth: 'root' }, async () => {
    await options.update('ModelRatio', optionRegistry.ModelRatio.default);
    return raw({ success: true, message: '重置模型倍率成功' });
  });
}
