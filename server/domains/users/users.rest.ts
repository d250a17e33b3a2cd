import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createUserInput, manageUserInput, updateSelfInput, updateUserInput } from '../../../shared/schemas/users.ts';
import { contractOf, pagedQuery } from '../../compat/contract.ts';
import { decodeQuery } from '../../compat/go-decode.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

const pageQuery = z.object({ p: q.int(1), page_size: q.int(10) }).loose();
const searchQuery = pageQuery.extend({ keyword: q.str(), group: q.str() });
/** 2026: GetPageQuery (the size may also come as `ps` or `size`); the answer's shape is the same. */
const pagedSearchQuery = pagedQuery({ keyword: q.str(), group: q.str() });
const idParams = z.object({ id: q.id() });

/** Style A page object as new-api sends it. */
const pageAnswer = <T>(r: { items: T[]; total: number; page: number; pageSize: number }) => ({
  items: r.items,
  total: r.total,
  page: r.page,
  page_size: r.pageSize,
});

/** Every /api route of the users domain (one registration line in compat/index.ts); sign-in routes are auth's. */
export function registerUserRoutes(app: FastifyInstance, deps: AppDeps) {
  const { users } = deps.services;

  // Groups and models
  restRoute(app, deps, 'GET', '/api/user/groups', { auth: 'public' }, () => users.publicGroups());
  restRoute(app, deps, 'GET', '/api/user/self/groups', { auth: 'user' }, ({ user }) => users.selfGroups(user));
  restRoute(app, deps, 'GET', '/api/user/models', { auth: 'user' }, ({ user }) => users.userModels(user));
  restRoute(app, deps, 'GET', '/api/group/', { auth: 'admin' }, () => users.groupNames());

  // Self
  restRoute(app, deps, 'GET', '/api/user/self', { auth: 'user' }, ({ user }) => users.getSelf(user.id));
  restRoute(app, deps, 'PUT', '/api/user/self', { auth: 'user', body: updateSelfInput }, async ({ user, body }) => {
    await users.updateSelf(user.id, body);
  });
  restRoute(app, deps, 'DELETE', '/api/user/self', { auth: 'user' }, async ({ user, endSession }) => {
    await users.deleteSelf(user.id);
    await endSession();
  });
  restRoute(app, deps, 'GET', '/api/user/token', { auth: 'user' }, ({ user }) => users.generateAccessToken(user.id));
  restRoute(app, deps, 'GET', '/api/user/aff', { auth: 'user' }, ({ user }) => users.getAffCode(user.id));

  // Administration
  const listUsers = async (raw: unknown, search: boolean) => {
    const filter = (v: { keyword: string; group: string }) => (search ? { keyword: v.keyword, group: v.group } : {});
    if (contractOf(deps) === '2025-04') {
      const query = decodeQuery(searchQuery, raw);
      return pageAnswer(await users.listUsers({ page: query.p, pageSize: query.page_size, ...filter(query) }));
    }
    const query = decodeQuery(pagedSearchQuery, raw);
    const { page, pageSize } = query.paging;
    return pageAnswer(await users.listUsers({ page, pageSize, ...filter(query) }));
  };
  restRoute(app, deps, 'GET', '/api/user/', { auth: 'admin' }, ({ req }) => listUsers(req.query, false));
  restRoute(app, deps, 'GET', '/api/user/search', { auth: 'admin' }, ({ req }) => listUsers(req.query, true));
  restRoute(app, deps, 'GET', '/api/user/:id', { auth: 'admin', params: idParams }, ({ user, params }) =>
    users.getUser(user, params.id),
  );
  restRoute(app, deps, 'POST', '/api/user/', { auth: 'admin', body: createUserInput }, async ({ user, body }) => {
    await users.createUser(user, body);
  });
  restRoute(app, deps, 'PUT', '/api/user/', { auth: 'admin', body: updateUserInput }, async ({ user, body }) => {
    await users.updateUser(user, body);
  });
  // add_quota (2026) answers no data, like new-api; the other actions the user's role and status.
  restRoute(app, deps, 'POST', '/api/user/manage', { auth: 'admin', body: manageUserInput }, async ({ user, body }) => {
    const after = await users.manageUser(user, body);
    return body.action === 'add_quota' ? undefined : after;
  });
  // new-api answers an empty body here (a bug, api-contract §15.1); we send the envelope.
  restRoute(app, deps, 'DELETE', '/api/user/:id', { auth: 'admin', params: idParams }, async ({ user, params }) => {
    await users.removeUser(user, params.id);
  });
}
