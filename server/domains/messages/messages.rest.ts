import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createMessageBody, messageFields, messageId } from '../../../shared/schemas/messages.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/** new-api sends p and page_size in the query; search adds keyword and an ISO start/end date. */
const pageQuery = z
  .object({ p: q.int(1), page_size: q.int(0) })
  .transform(({ p, page_size }) => ({ page: p, pageSize: page_size }));

const searchQuery = z
  .object({ p: q.int(1), page_size: q.int(0), keyword: q.str(), start_date: q.str(), end_date: q.str() })
  .transform((v) => ({
    page: v.p,
    pageSize: v.page_size,
    keyword: v.keyword.trim(),
    startDate: v.start_date.trim(),
    endDate: v.end_date.trim(),
  }))
  .refine((v) => [v.startDate, v.endDate].every((d) => d === '' || !Number.isNaN(Date.parse(d))), '日期格式无效');

/** REST answers keep their fields: a notice's stored registry messages are for the console (tRPC). */
function plain<T extends { notice: unknown }>(m: T): Omit<T, 'notice'> {
  const { notice, ...rest } = m;
  void notice;
  return rest;
}
const plainPage = async <T extends { notice: unknown }, P extends { items: T[] }>(page: Promise<P>) => {
  const p = await page;
  return { ...p, items: p.items.map(plain) };
};

export function registerMessageRoutes(app: FastifyInstance, deps: AppDeps) {
  const messages = deps.services.messages;
  const admin = { auth: 'admin' } as const;
  const user = { auth: 'user' } as const;

  restRoute(app, deps, 'POST', '/api/admin/messages', { ...admin, body: createMessageBody }, async ({ body, user }) =>
    plain(await messages.create(body, user.id)),
  );
  restRoute(app, deps, 'GET', '/api/admin/messages', { ...admin, query: pageQuery }, ({ query }) =>
    plainPage(messages.list(query)),
  );
  restRoute(app, deps, 'GET', '/api/admin/messages/search', { ...admin, query: searchQuery }, ({ query }) =>
    plainPage(messages.list(query)),
  );
  restRoute(app, deps, 'GET', '/api/admin/messages/:id', { ...admin, params: messageId }, async ({ params }) =>
    plain(await messages.get(params.id)),
  );
  restRoute(app, deps, 'GET', '/api/admin/messages/:id/recipients', { ...admin, params: messageId }, ({ params }) =>
    messages.recipients(params.id),
  );
  restRoute(
    app,
    deps,
    'PUT',
    '/api/admin/messages/:id',
    { ...admin, params: messageId, body: messageFields },
    async ({ params, body }) => plain(await messages.update(params.id, body)),
  );
  restRoute(app, deps, 'DELETE', '/api/admin/messages/:id', { ...admin, params: messageId }, async ({ params }) => {
    await messages.remove(params.id);
  });

  restRoute(app, deps, 'GET', '/api/user/messages', { ...user, query: pageQuery }, ({ query, user }) =>
    plainPage(messages.inbox.list(user.id, query)),
  );
  restRoute(app, deps, 'GET', '/api/user/messages/unread_count', user, ({ user }) =>
    messages.inbox.unreadCount(user.id),
  );
  restRoute(app, deps, 'GET', '/api/user/messages/:id', { ...user, params: messageId }, async ({ params, user }) =>
    plain(await messages.inbox.get(user.id, params.id)),
  );
  restRoute(app, deps, 'PUT', '/api/user/messages/:id/read', { ...user, params: messageId }, async ({ params, user }) =>
    plain(await messages.inbox.markRead(user.id, params.id)),
  );
}
