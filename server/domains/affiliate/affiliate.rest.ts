import type { FastifyInstance } from 'fastify';
import { affTransferInput } from '../../../shared/schemas/affiliate.ts';
import { restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

export function registerAffiliateRoutes(app: FastifyInstance, deps: AppDeps) {
  const { affiliate } = deps.services;
  restRoute(
    app,
    deps,
    'POST',
    '/api/user/aff_transfer',
    { auth: 'user', body: affTransferInput },
    async ({ user, body }) => {
      await affiliate.transfer(user.id, body.quota);
      return withMessage('划转成功');
    },
  );
}
