import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { appRouter } from '../../server/trpc/router.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { listRoutes } from './routes.ts';
import { createUser, login, loginAs, randomIp, restHeaders, setupRoot, trpcCaller, ROOT_PASSWORD } from '../users.ts';
import { insertLogs } from '../../server/domains/logs/insert-logs.repo.ts';

/*
 * Who may call what. Every /api route (read from the running app) and every tRPC
 * procedure (read from the router) is called as anonymous, a common user, an admin
 * and root. Expected levels come from the API contract (docs/api-contract.md: each
 * route's auth column and each section's "all admin"/"root"), not from the code.
 */

type Level = 'public' | 'user' | 'admin' | 'root';
const ORDER: Level[] = ['public', 'user', 'admin', 'root'];

/** Exact routes from the contract's tables (path without trailing slash). */
const CONTRACT: Record<string, Level> = {
  // new-api 2026 (router/api-router.go; docs/new-api-contract.md)
  'GET /api/user/checkin': 'user',
  'POST /api/user/checkin': 'user',
  'POST /api/user/creem/pay': 'user',
  'GET /api/user/topup': 'admin',
  'GET /api/user/topup/info': 'user',
  'GET /api/user/topup/self': 'user',
  'POST /api/user/topup/complete': 'admin',
  'POST /api/user/stripe/pay': 'user',
  'POST /api/user/stripe/amount': 'user',
  'POST /api/user/waffo/pay': 'user',
  'POST /api/user/epay/notify': 'public',
  'GET /api/user/oauth/bindings': 'user',
  'DELETE /api/user/oauth/bindings/:provider_id': 'user',
  'GET /api/user/:id/oauth/bindings': 'admin',
  'DELETE /api/user/:id/oauth/bindings/:provider_id': 'admin',
  'DELETE /api/user/:id/bindings/:binding_type': 'admin',
  'GET /api/user-agreement': 'public',
  'GET /api/privacy-policy': 'public',
  'GET /api/uptime/status': 'public',
  'GET /api/ratio_config': 'public',
  'GET /api/ratio_sync/channels': 'root',
  'POST /api/ratio_sync/fetch': 'root',
  'POST /api/auth/external/:provider/jwt/login': 'public',
  'POST /api/auth/external/:provider/header/login': 'public',
  'GET /api/log/channel_affinity_usage_cache': 'admin',
  'GET /api/data/users': 'admin',
  'GET /api/custom-oauth-provider': 'root',
  'POST /api/custom-oauth-provider': 'root',
  'POST /api/custom-oauth-provider/discovery': 'root',
  'GET /api/custom-oauth-provider/:id': 'root',
  'PUT /api/custom-oauth-provider/:id': 'root',
  'DELETE /api/custom-oauth-provider/:id': 'root',
  'GET /api/performance/stats': 'root',
  'DELETE /api/performance/disk_cache': 'root',
  'POST /api/performance/reset_stats': 'root',
  'POST /api/performance/gc': 'root',
  'GET /api/performance/logs': 'root',
  'DELETE /api/performance/logs': 'root',
  'GET /api/deployments': 'admin',
  'POST /api/deployments': 'admin',
  'GET /api/deployments/settings': 'admin',
  'POST /api/deployments/settings/test-connection': 'admin',
  'GET /api/deployments/search': 'admin',
  'GET /api/deployments/hardware-types': 'admin',
  'GET /api/deployments/locations': 'admin',
  'GET /api/deployments/available-replicas': 'admin',
  'POST /api/deployments/test-connection': 'admin',
  'POST /api/deployments/price-estimation': 'admin',
  'GET /api/deployments/check-name': 'admin',
  'GET /api/deployments/:id': 'admin',
  'PUT /api/deployments/:id': 'admin',
  'DELETE /api/deployments/:id': 'admin',
  'POST /api/deployments/:id/extend': 'admin',
  'GET /api/deployments/:id/logs': 'admin',
  'GET /api/deployments/:id/containers': 'admin',
  'GET /api/deployments/:id/containers/:container_id': 'admin',
  'PUT /api/deployments/:id/name': 'admin',
  'DELETE /api/log': 'admin',
  'DELETE /api/user/:id': 'admin',
  'DELETE /api/user/self': 'user',
  // Passkeys (issue 32, new-api's router): sign-in is public, the rest is the user's own; reset is an admin's.
  'DELETE /api/user/:id/reset_passkey': 'admin',
  'DELETE /api/user/passkey': 'user',
  'GET /api/user/passkey': 'user',
  'POST /api/user/passkey/login/begin': 'public',
  'POST /api/user/passkey/login/finish': 'public',
  'POST /api/user/passkey/register/begin': 'user',
  'POST /api/user/passkey/register/finish': 'user',
  'POST /api/user/passkey/verify/begin': 'user',
  'POST /api/user/passkey/verify/finish': 'user',
  // Two-factor (issue 32): one's own setup, the sign-in's second step, the admin's figures and reset, the fresh
  // check before a channel's key is shown (root only, as new-api).
  'GET /api/user/2fa/status': 'user',
  'POST /api/user/2fa/setup': 'user',
  'POST /api/user/2fa/enable': 'user',
  'POST /api/user/2fa/disable': 'user',
  'POST /api/user/2fa/backup_codes': 'user',
  'POST /api/user/login/2fa': 'public',
  'GET /api/user/2fa/stats': 'admin',
  'DELETE /api/user/:id/2fa': 'admin',
  'POST /api/verify': 'user',
  'POST /api/channel/:id/key': 'root',
  'GET /api/about': 'public',
  'GET /api/channel/models': 'admin',
  'GET /api/channel/models_enabled': 'admin',
  'GET /api/data': 'admin',
  'GET /api/data/self': 'user',
  'GET /api/group': 'admin',
  'GET /api/home_page_content': 'public',
  'GET /api/log': 'admin',
  'GET /api/log/search': 'admin',
  'GET /api/log/self': 'user',
  'GET /api/log/self/search': 'user',
  'GET /api/log/self/stat': 'user',
  'GET /api/log/stat': 'admin',
  'GET /api/log/token': 'public',
  'GET /api/mj': 'admin',
  'GET /api/mj/self': 'user',
  'GET /api/models': 'user',
  'GET /api/notice': 'public',
  // §9: binding needs the session of the account being bound.
  'GET /api/oauth/email/bind': 'user',
  'GET /api/oauth/wechat/bind': 'user',
  'POST /api/oauth/email/bind': 'user',
  'POST /api/oauth/wechat/bind': 'user',
  'GET /api/oauth/telegram/bind': 'user',
  'GET /api/pricing': 'public',
  'GET /api/setup': 'public',
  'GET /api/status': 'public',
  'GET /api/status/test': 'admin',
  'GET /api/task': 'admin',
  'GET /api/task/self': 'user',
  'GET /api/user': 'admin',
  'GET /api/user/:id': 'admin',
  'GET /api/user/aff': 'user',
  'GET /api/user/epay/notify': 'public',
  'GET /api/user/groups': 'public',
  'GET /api/user/logout': 'public',
  'GET /api/user/models': 'user',
  'GET /api/user/search': 'admin',
  'GET /api/user/self': 'user',
  'GET /api/user/self/groups': 'user',
  'GET /api/user/token': 'user',
  'POST /api/setup': 'public',
  'POST /api/user': 'admin',
  'POST /api/user/aff_transfer': 'user',
  'POST /api/user/amount': 'user',
  'POST /api/user/login': 'public',
  'POST /api/user/manage': 'admin',
  'POST /api/user/pay': 'user',
  'POST /api/user/register': 'public',
  'POST /api/user/reset': 'public',
  'POST /api/user/topup': 'user',
  'PUT /api/user': 'admin',
  'PUT /api/user/self': 'user',
  'PUT /api/user/setting': 'user',
};

/** Whole areas: contract section headers, and the spec for Switchyard's own additions. */
const AREAS: [RegExp, Level][] = [
  [/^\/api\/token\b/, 'user'],
  [/^\/api\/channel\b/, 'admin'],
  [/^\/api\/option\b/, 'root'],
  [/^\/api\/redemption\b/, 'admin'],
  // Subscription plans (issue 32): admin writes, the gateway's callbacks, the rest a user's own.
  [/^\/api\/subscription\/admin\//, 'admin'],
  [/^\/api\/subscription\/epay\/(notify|return)$/, 'public'],
  [/^\/api\/subscription\//, 'user'],
  [/^\/api\/oauth\//, 'public'],
  [/^\/api\/admin\//, 'admin'],
  [/^\/api\/model_mapping\b/, 'admin'],
  // The model marketplace (issue 32): model metadata, vendors, prefill groups; GET /api/models (above) stays a user's.
  [/^\/api\/models\b/, 'admin'],
  [/^\/api\/vendors\b/, 'admin'],
  [/^\/api\/prefill_group\b/, 'admin'],
  [/^\/api\/user\/messages\b/, 'user'],
  [/^\/api\/user\/check_in/, 'user'],
  // Import from new-api (issue 42): another database's users, keys and balances, root's alone.
  [/^\/api\/import\//, 'root'],
  [/^\/api\/(verification|reset_password)\b/, 'public'],
];

function expectedLevel(method: string, path: string): Level | undefined {
  const exact = CONTRACT[`${method} ${path}`];
  if (exact) return exact;
  return AREAS.find(([re]) => re.test(path))?.[1];
}

let t: TestApp;
let sessions: Record<'user' | 'admin' | 'root', Record<string, string>>;
beforeAll(async () => {
  t = await createTestApp();
  const root = await setupRoot(t);
  const rootSession = await login(t, root.username, ROOT_PASSWORD);
  sessions = {
    user: (await loginAs(t, Role.Common)).headers,
    admin: (await loginAs(t, Role.Admin)).headers,
    root: restHeaders(rootSession),
  };
});
afterAll(async () => {
  await t.close();
});

/** The role refusal: HTTP 200 with success:false and this message on /api (api-contract §0.1, §0.3). */
const ROLE_MESSAGE = '无权进行此操作，权限不足';

/** The JSON body of an answer, or undefined when it has none (or is not JSON). */
function jsonOf(body: string): { success?: unknown; message?: unknown } | undefined {
  try {
    return JSON.parse(body) as { success?: unknown; message?: unknown };
  } catch {
    return undefined;
  }
}

/** A refusal on /api: HTTP 200 with success:false and, when given, exactly this message. */
function expectRefused(res: { statusCode: number; body: string }, message?: string) {
  expect(res.statusCode, res.body).toBe(200);
  const body = jsonOf(res.body);
  expect(body?.success, res.body).toBe(false);
  if (message !== undefined) expect(body?.message).toBe(message);
}

/** Calls that end the caller's own session or account are checked apart (below), not in the matrix. */
const SELF_ENDING = new Set(['DELETE /api/user/self', 'GET /api/user/logout']);

/** Asked with a token key as bearer, not a session: checked in test/console-2026/not-available.test.ts. */
const KEY_AUTH = new Set(['GET /api/usage/token']);

describe('REST role matrix', () => {
  it('every /api route answers 401 to anonymous, refuses with the role message below its level, and lets its level through', async () => {
    const routes = listRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => r.path.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(80);
    const problems: string[] = [];
    const unknown: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const key = `${r.method} ${r.path.replace(/\/$/, '')}`;
      if (KEY_AUTH.has(key)) continue;
      const level = expectedLevel(r.method, r.path.replace(/\/$/, ''));
      if (!level) {
        unknown.push(key);
        continue;
      }
      const url = r.path.replace(/:[a-z_]+/gi, '999999');
      const callers: (Level | 'anonymous')[] = SELF_ENDING.has(key)
        ? ['anonymous']
        : ['anonymous', 'user', 'admin', 'root'];
      for (const who of callers) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url,
          headers: who === 'anonymous' ? {} : sessions[who as 'user' | 'admin' | 'root'],
          remoteAddress: randomIp(),
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
        });
        checked += 1;
        const rank = who === 'anonymous' ? 0 : ORDER.indexOf(who as Level);
        const allowed = rank >= ORDER.indexOf(level);
        const status = res.statusCode;
        const body = jsonOf(res.body);
        const roleRefusal = body?.success === false && body.message === ROLE_MESSAGE;
        if (status >= 500) problems.push(`${key} as ${who}: ${status}`);
        else if (!allowed && who === 'anonymous') {
          if (status !== 401) problems.push(`${key} as ${who}: ${status}, expected 401`);
          else if (body?.success !== false) problems.push(`${key} as ${who}: no {success:false} envelope`);
        } else if (!allowed) {
          if (status !== 200 || !roleRefusal)
            problems.push(
              `${key} as ${who}: ${status} ${res.body.slice(0, 80)}, expected 200 {success:false, "${ROLE_MESSAGE}"}`,
            );
        } else if (status === 401 || roleRefusal)
          problems.push(`${key} as ${who}: refused (${status}) but the contract allows ${level}`);
      }
    }
    expect(problems).toEqual([]);
    // Every route has an expected level: a new route must be added to the table above.
    expect(unknown).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  it('ending one’s own session or account needs a session; logout is harmless for a visitor', async () => {
    const anon = await t.app.inject({ method: 'DELETE', url: '/api/user/self', remoteAddress: randomIp() });
    expect(anon.statusCode).toBe(401);
    const out = await t.app.inject({ method: 'GET', url: '/api/user/logout', remoteAddress: randomIp() });
    expect(out.statusCode).toBe(200);
  });
});

type Proc = { _def: { type: string } };
const procs = appRouter._def.procedures as unknown as Record<string, Proc>;

/** Procedure levels by namespace (the console's screens: admin areas, root settings). */
function procLevel(name: string): Level {
  const [ns, fn] = name.split('.');
  if (ns === 'options' || name === 'channels.revealKey') return 'root';
  // Import from new-api (issue 42): another database's users, keys and balances.
  if (ns === 'importer') return 'root';
  // The tracing card (issue 41): the exporter's endpoint and header names are the operator's, root's alone.
  if (name === 'status.tracing') return 'root';
  // Which enabled models have no price: the operator's view (issue 28).
  if (name === 'pricing.unpriced' || name === 'pricing.videoModels') return 'admin';
  // The shipped preset prices (issue 39): listing and clearing them is a price write, root's like every option.
  if (name === 'pricing.presets' || name === 'pricing.clearPresets') return 'root';
  // Site-wide error rates per model and channel (issue 28): other users' calls, so admins only.
  if (name === 'dashboard.errors') return 'admin';
  // Prompt-cache shares per model and channel (issue 29): every user's calls, so admins only.
  if (name === 'dashboard.promptCache') return 'admin';
  if (['status', 'auth', 'pricing'].includes(ns)) return 'public';
  // Passkey sign-in (issue 32) comes before any session; status, register and remove are the user's own.
  if (name === 'passkeys.loginBegin' || name === 'passkeys.loginFinish') return 'public';
  // Two-factor (issue 32): the sign-in's second step comes before any session; an admin resets others'.
  if (name === 'twoFactor.login') return 'public';
  if (name === 'twoFactor.adminReset') return 'admin';
  if (['redemptions', 'messages', 'modelMapping', 'logsCleanup', 'modelMeta', 'vendors'].includes(ns)) return 'admin';
  // Subscription plans (issue 32): the admin's plans and users' subscriptions; `subscriptions` is the user's own.
  if (ns === 'subscriptionAdmin') return 'admin';
  if (ns === 'channels') return fn === 'defaultModels' ? 'user' : 'admin';
  if (ns === 'users') return ['list', 'get', 'create', 'update', 'manage', 'remove'].includes(fn) ? 'admin' : 'user';
  if (name === 'groups.list' || name === 'logs.userInfo') return 'admin';
  return 'user';
}

describe('tRPC role matrix', () => {
  it('every procedure refuses callers below its level (UNAUTHORIZED / FORBIDDEN) and lets its level through', async () => {
    const users = {
      user: await createUser(t, { role: Role.Common }),
      admin: await createUser(t, { role: Role.Admin }),
      root: {
        id: Number(
          (await t.deps.db.selectFrom('users').select('id').where('role', '=', 100).executeTakeFirstOrThrow()).id,
        ),
      },
    };
    const names = Object.keys(procs);
    expect(names.length).toBeGreaterThan(60);
    const problems: string[] = [];
    for (const name of names) {
      if (name === 'auth.logout' || name === 'users.deleteSelf') continue;
      const level = procLevel(name);
      for (const who of ['anonymous', 'user', 'admin', 'root'] as const) {
        const role = { anonymous: 0, user: Role.Common, admin: Role.Admin, root: Role.Root }[who];
        const caller = trpcCaller(t, who === 'anonymous' ? undefined : { id: users[who].id, role });
        let fn: unknown = caller;
        for (const k of name.split('.')) fn = (fn as Record<string, unknown>)[k];
        let code = 'OK';
        try {
          await (fn as (i: unknown) => Promise<unknown>)(undefined);
        } catch (e) {
          code = (e as { code?: string }).code ?? 'THROWN';
        }
        const rank = who === 'anonymous' ? 0 : ORDER.indexOf(who);
        const allowed = rank >= ORDER.indexOf(level);
        if (code === 'INTERNAL_SERVER_ERROR' || code === 'THROWN') problems.push(`${name} as ${who}: ${code}`);
        else if (!allowed && code !== (who === 'anonymous' ? 'UNAUTHORIZED' : 'FORBIDDEN'))
          problems.push(`${name} as ${who}: ${code}, expected refusal`);
        else if (allowed && (code === 'UNAUTHORIZED' || (code === 'FORBIDDEN' && level !== 'public')))
          problems.push(`${name} as ${who}: ${code} but ${level} may call it`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('user management: nobody acts on the same or a higher role; only root promotes', () => {
  it('admin cannot read, change, disable, delete or promote another admin or root; root can', async () => {
    const admin = await loginAs(t, Role.Admin);
    const otherAdmin = await createUser(t, { role: Role.Admin });
    const common = await createUser(t, { role: Role.Common });
    const rootId = Number(
      (await t.deps.db.selectFrom('users').select('id').where('role', '=', 100).executeTakeFirstOrThrow()).id,
    );
    const call = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      headers: Record<string, string>,
      payload?: object,
    ) => t.app.inject({ method, url, headers, payload, remoteAddress: randomIp() });

    const noUpdate = '无权更新同权限等级或更高权限等级的用户信息';
    for (const target of [otherAdmin.id, rootId]) {
      expectRefused(await call('GET', `/api/user/${target}`, admin.headers), '无权获取同级或更高等级用户的信息');
      for (const action of ['disable', 'delete', 'promote', 'demote'])
        expectRefused(await call('POST', '/api/user/manage', admin.headers, { id: target, action }), noUpdate);
      expectRefused(
        await call('PUT', '/api/user/', admin.headers, {
          id: target,
          username: 'hijack',
          display_name: 'x',
          group: 'default',
          quota: 1,
        }),
        noUpdate,
      );
      expectRefused(
        await call('DELETE', `/api/user/${target}`, admin.headers),
        '无权删除同权限等级或更高权限等级的用户',
      );
    }
    const row = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', otherAdmin.id)
      .executeTakeFirstOrThrow();
    expect([row.role, row.status, row.username]).toEqual([Role.Admin, 1, otherAdmin.username]);

    // An admin may manage a common user, but not promote them; root may.
    const disabled = await call('POST', '/api/user/manage', admin.headers, { id: common.id, action: 'disable' });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ success: true });
    expectRefused(
      await call('POST', '/api/user/manage', admin.headers, { id: common.id, action: 'promote' }),
      '普通管理员用户无法提升其他用户为管理员',
    );
    const rootHeaders = sessions.root;
    const byRoot = await call('POST', '/api/user/manage', rootHeaders, { id: common.id, action: 'promote' });
    expect(byRoot.statusCode).toBe(200);
    expect(byRoot.json()).toMatchObject({ success: true });
    const promoted = await t.deps.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', common.id)
      .executeTakeFirstOrThrow();
    expect(promoted.role).toBe(Role.Admin);
    // An admin cannot create a user of its own role either.
    expectRefused(
      await call('POST', '/api/user/', admin.headers, { username: 'newadm', password: 'Passw0rd!', role: Role.Admin }),
      '无法创建权限大于等于自己的用户',
    );
  });
});

describe('ownership: a user never reads or changes what belongs to another', () => {
  it('tokens, logs, tasks, messages and top-ups of user A are invisible and untouchable for user B', async () => {
    const a = await loginAs(t, Role.Common);
    const b = await loginAs(t, Role.Common);
    const now = Math.floor(Date.now() / 1000);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: a.headers,
      payload: { name: 'a-token', remain_quota: 1000, expired_time: -1, unlimited_quota: false },
      remoteAddress: randomIp(),
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ success: true });
    const tok = await t.deps.db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', a.user.id)
      .executeTakeFirstOrThrow();
    // As the application writes log rows: with their hourly rollup (the page reads both).
    await insertLogs(t.deps.db, [
      { user_id: a.user.id, created_at: now, type: 2, content: 'secret-of-a', username: a.user.username, quota: 7 },
    ]);
    await t.deps.db
      .insertInto('tasks')
      .values({ user_id: a.user.id, task_id: 'task-of-a', platform: 'suno', action: 'MUSIC', submit_time: now })
      .execute();
    await t.deps.db
      .insertInto('top_ups')
      .values({ user_id: a.user.id, amount: 5, money: 1, trade_no: 'TRADE-OF-A', create_time: now, status: 'pending' })
      .execute();
    const rootRow = await t.deps.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('role', '=', 100)
      .executeTakeFirstOrThrow();
    await trpcCaller(t, { id: Number(rootRow.id), role: Role.Root }).messages.create({
      title: 'for a only',
      content: 'private note',
      format: 'markdown',
      userIds: [a.user.id],
    });
    const msg = await t.deps.db
      .selectFrom('messages')
      .select('id')
      .where('title', '=', 'for a only')
      .executeTakeFirstOrThrow();

    const asB = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: b.headers, payload, remoteAddress: randomIp() });
    // Tokens: not readable, not editable, not deletable, not listed.
    expectRefused(await asB('GET', `/api/token/${tok.id}`), '令牌不存在');
    expect((await asB('GET', `/api/token/${tok.id}`)).body).not.toContain(tok.key);
    await asB('PUT', '/api/token/', {
      id: Number(tok.id),
      name: 'stolen',
      remain_quota: 999999,
      unlimited_quota: true,
      expired_time: -1,
    });
    await asB('PUT', '/api/token/?status_only=true', { id: Number(tok.id), status: 2 });
    await asB('DELETE', `/api/token/${tok.id}`);
    const after = await t.deps.db.selectFrom('tokens').selectAll().where('id', '=', tok.id).executeTakeFirstOrThrow();
    expect([after.name, after.status, after.remain_quota, after.unlimited_quota]).toEqual(['a-token', 1, 1000, 0]);
    for (const url of [
      '/api/token/',
      `/api/token/search?keyword=a-token`,
      '/api/log/self',
      '/api/log/self/search?keyword=2',
      '/api/task/self',
      '/api/user/messages',
    ])
      expect((await asB('GET', url)).body).not.toMatch(/a-token|secret-of-a|task-of-a|for a only/);
    expectRefused(await asB('GET', `/api/user/messages/${msg.id}`), '消息不存在');
    expectRefused(await asB('PUT', `/api/user/messages/${msg.id}/read`), '消息不存在');

    // The same through tRPC, as the console calls it.
    const cb = trpcCaller(t, { id: b.user.id, role: Role.Common });
    await expect(cb.tokens.get({ id: Number(tok.id) })).rejects.toThrow();
    await expect(cb.tokens.remove({ id: Number(tok.id) })).rejects.toThrow();
    await expect(cb.inbox.get({ id: Number(msg.id) })).rejects.toThrow();
    expect(JSON.stringify(await cb.logs.list({}))).not.toContain('secret-of-a');
    expect(JSON.stringify(await cb.wallet.topUps({}))).not.toContain('TRADE-OF-A');
    expect(JSON.stringify(await cb.tasks.music({}))).not.toContain('task-of-a');
    expect(await t.deps.db.selectFrom('tokens').select('id').where('id', '=', tok.id).executeTakeFirst()).toBeDefined();
    // And A still sees all of it: the checks above are not passing because nothing is shown to anyone.
    const ca = trpcCaller(t, { id: a.user.id, role: Role.Common });
    expect(JSON.stringify(await ca.logs.list({}))).toContain('secret-of-a');
    expect(JSON.stringify(await ca.wallet.topUps({}))).toContain('TRADE-OF-A');
    expect(JSON.stringify(await ca.tasks.music({}))).toContain('task-of-a');
    expect((await ca.inbox.get({ id: Number(msg.id) })).title).toBe('for a only');
  });
});
