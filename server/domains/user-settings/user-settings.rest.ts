import type { FastifyInstance } from 'fastify';
import { userSettingInput } from '../../../shared/schemas/user-setting.ts';
import { restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

export function registerUserSettingRoutes(app: FastifyInstance, deps: AppDeps) {
  const { userSettings } = deps.services;
  restRoute(app, deps, 'PUT', '/api/user/setting', { auth: 'user', body: userSettingInput }, async ({ user, body }) => {
    await userSettings.update(user.id, body);
    return withMessage('设置已更新');
  });
}
