import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pagedQuery } from '../../compat/contract.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/* new-api's 2026 wallet and order calls (docs/new-api-contract/misc.md § Wallet). */

const ownOrdersQuery = pagedQuery({ keyword: q.str() });
const allOrdersQuery = pagedQuery({
  keyword: q.str(),
  user_id: q.int(0),
  status: q.str(),
  start_time: q.int(0),
  end_time: q.int(0),
});
const completeBody = z.object({ trade_no: z.string().default('') }).loose();
const complianceBody = z.object({ confirmed: z.boolean().default(false) }).loose();

export function registerTopUpOrderRoutes(app: FastifyInstance, deps: AppDeps) {
  const { topup } = deps.services;

  restRoute(app, deps, 'GET', '/api/user/topup/info', { auth: 'user' }, () => topup.info());
  restRoute(app, deps, 'GET', '/api/user/topup/self', { auth: 'user', query: ownOrdersQuery }, ({ user, query }) =>
    topup.listOwn(user.id, query.keyword, query.paging),
  );
  restRoute(app, deps, 'GET', '/api/user/topup', { auth: 'admin', query: allOrdersQuery }, ({ query }) =>
    topup.listAll(
      {
        keyword: query.keyword,
        userId: query.user_id > 0 ? query.user_id : undefined,
        status: query.status,
        from: query.start_time,
        to: query.end_time,
      },
      query.paging,
    ),
  );
  restRoute(app, deps, 'POST', '/api/user/topup/complete', { auth: 'admin', body: completeBody }, async ({ body }) => {
    await topup.completeByAdmin(body.trade_no);
  });
  restRoute(
    app,
    deps,
    'POST',
    '/api/option/payment_compliance',
    { auth: 'root', body: complianceBody },
    ({ user, body, req }) => topup.confirmCompliance(user.id, req.ip, body.confirmed),
  );
}
