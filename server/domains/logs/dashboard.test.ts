import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, restHeaders, setupRoot, trpcCaller } from '../../../test/users.ts';
import { logsPageQuery } from './logs.repo.ts';
import { insertBucket, insertLog, nowS } from './logs.fixtures.ts';

describe('usage data, the dashboard and the console log procedures', () => {
  let t: TestApp;
  let root: { id: number; role: number; username: string };
  let admin: { id: number; username: string; headers: Record<string, string> };
  let alice: { id: number; username: string; headers: Record<string, string> };
  let bob: { id: number; username: string };
  const hour = Math.floor(nowS() / 3600) * 3600 - 5 * 3600;

  beforeAll(async () => {
    t = await createTestApp();
    const r = await setupRoot(t);
    root = { id: Number(r.id), role: r.role, username: r.username };
    const a = await createUser(t, { role: Role.Admin });
    admin = { ...a, headers: restHeaders(await login(t, a.username, a.password)) };
    const u = await createUser(t, { quota: 1234, group: 'vip' });
    alice = { ...u, headers: restHeaders(await login(t, u.username, u.password)) };
    bob = await createUser(t);
    await insertBucket(t, {
      user_id: alice.id,
      username: alice.username,
      model_name: 'gpt-4o',
      created_at: hour,
      quota: 10,
    });
    await insertBucket(t, {
      user_id: bob.id,
      username: bob.username,
      model_name: 'gpt-4o',
      created_at: hour,
      quota: 5,
    });
    await insertBucket(t, {
      user_id: bob.id,
      username: bob.username,
      model_name: 'o3',
      created_at: hour + 3600,
      quota: 7,
    });
    await insertLog(t, { user_id: alice.id, username: alice.username, quota: 11 });
    await insertLog(t, { user_id: bob.id, username: bob.username, quota: 22, channel_id: 3 });
  });
  afterAll(() => t.close());

  const get = async (url: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.json() };
  };

  it('sums every user per model and hour for admins, or shows one user by name', async () => {
    const range = `start_timestamp=${hour - 1}&end_timestamp=${hour + 7200}`;
    const all = (await get(`/api/data/?${range}&default_time=hour`, admin.headers)).body.data;
    expect(all).toEqual([
      { id: 0, user_id: 0, username: '', model_name: 'gpt-4o', created_at: hour, token_used: 30, count: 2, quota: 15 },
      {
        id: 0,
        user_id: 0,
        username: '',
        model_name: 'o3',
        created_at: hour + 3600,
        token_used: 14,
        count: 1,
        quota: 7,
      },
    ]);
    const one = (await get(`/api/data/?${range}&username=${bob.username}`, admin.headers)).body.data;
    expect(one.map((r: { quota: number }) => r.quota)).toEqual([5, 7]);
    expect(one[0].user_id).toBe(bob.id);
    expect(await get(`/api/data/?${range}`, alice.headers)).toEqual({
      status: 200,
      body: { success: false, message: '无权进行此操作，权限不足' },
    });
  });

  it('gives a user only their own buckets, within 30 days', async () => {
    const mine = (await get(`/api/data/self?start_timestamp=${hour - 1}&end_timestamp=${hour + 7200}`, alice.headers))
      .body.data;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ user_id: alice.id, quota: 10 });
    const defaults = (await get('/api/data/self/', alice.headers)).body.data;
    expect(defaults).toHaveLength(1);
    const tooLong = await get(`/api/data/self?start_timestamp=1&end_timestamp=${31 * 86400 + 2}`, alice.headers);
    expect(tooLong.status).toBe(200);
    expect(tooLong.body).toEqual({ success: false, message: '时间跨度不能超过 1 个月' });
  });

  it('answers dashboard.data by role', async () => {
    const input = { start_timestamp: hour - 1, end_timestamp: hour + 7200 };
    expect(await trpcCaller(t, { ...admin, role: Role.Admin }).dashboard.data(input)).toHaveLength(2);
    const own = await trpcCaller(t, { ...alice, role: Role.Common }).dashboard.data({
      ...input,
      username: bob.username,
    });
    expect(own.map((r) => r.user_id)).toEqual([alice.id]);
  });

  it('lists and sums logs by role through tRPC, hiding admin fields from users', async () => {
    const asAdmin = trpcCaller(t, { ...admin, role: Role.Admin });
    const asAlice = trpcCaller(t, { ...alice, role: Role.Common });
    expect((await asAdmin.logs.list({ p: 1, page_size: 10 })).total).toBe(2);
    const mine = await asAlice.logs.list({ p: 1, page_size: 10, username: bob.username, channel: 3 });
    expect(mine.total).toBe(1);
    expect(mine.items[0].username).toBe(alice.username);
    expect((await asAdmin.logs.stat({})).quota).toBe(33);
    expect(await asAlice.logs.stat({ username: bob.username })).toMatchObject({ quota: 11, rpm: 1 });
    await expect(trpcCaller(t).logs.list({})).rejects.toThrow();
  });

  it('shows the user-info popup to admins for users below them', async () => {
    const asAdmin = trpcCaller(t, { ...admin, role: Role.Admin });
    expect(await asAdmin.logs.userInfo({ id: alice.id })).toEqual({
      id: alice.id,
      username: alice.username,
      quota: 1234,
      used_quota: 0,
      request_count: 0,
      group: 'vip',
    });
    await expect(asAdmin.logs.userInfo({ id: root.id })).rejects.toThrow(/权限不足/);
    await expect(asAdmin.logs.userInfo({ id: 99999 })).rejects.toThrow(/用户不存在/);
    expect((await trpcCaller(t, root).logs.userInfo({ id: admin.id })).username).toBe(admin.username);
    await expect(trpcCaller(t, { ...alice, role: Role.Common }).logs.userInfo({ id: bob.id })).rejects.toThrow();
  });

  it("gives the dashboard the usage log's RPM and TPM (consume rows of the last 60 s), by role", async () => {
    const asAdmin = trpcCaller(t, { ...admin, role: Role.Admin });
    const asAlice = trpcCaller(t, { ...alice, role: Role.Common });
    // Older than the window, and not a consumption: neither counts on either page.
    await insertLog(t, { user_id: bob.id, username: bob.username, created_at: nowS() - 120 });
    await insertLog(t, { user_id: bob.id, username: bob.username, type: 1 });
    const rates = async (who: typeof asAdmin, username: string) => {
      const [dash, log] = await Promise.all([who.dashboard.rates({ username }), who.logs.stat({ username })]);
      expect(dash).toEqual({ rpm: log.rpm, tpm: log.tpm, window_s: 60 });
      return dash;
    };
    // One call each from alice and bob in the last minute, 10 + 5 tokens each.
    expect(await rates(asAdmin, '')).toMatchObject({ rpm: 2, tpm: 30 });
    expect(await rates(asAdmin, bob.username)).toMatchObject({ rpm: 1, tpm: 15 });
    // A user's own calls, whatever name they send.
    expect(await rates(asAlice, bob.username)).toMatchObject({ rpm: 1, tpm: 15 });
  });

  it('walks the time indexes instead of scanning and sorting the table (SQLite)', async () => {
    if (t.deps.dbType !== 'sqlite') return;
    const plan = async (w: Parameters<typeof logsPageQuery>[1]) => {
      const q = logsPageQuery(t.deps.db, w, 0, 10).compile();
      const rows = await sql
        .raw<{ detail: string }>(`explain query plan ${inline(q.sql, q.parameters)}`)
        .execute(t.deps.db);
      return rows.rows.map((r) => r.detail).join(' | ');
    };
    expect(await plan({ start: 1, end: 2 })).toMatch(/logs_created_idx/);
    expect(await plan({ userId: 1, start: 1 })).toMatch(/logs_user_created_idx/);
    expect(await plan({ type: 2, start: 1 })).toMatch(/logs_type_created_idx/);
    // The admin filters that pick out few rows get their own (column, created_at) index.
    expect(await plan({ username: 'u', start: 1, end: 2 })).toMatch(
      /logs_username_created_idx \(username=\? AND created_at>/,
    );
    expect(await plan({ channelId: 3, start: 1 })).toMatch(/logs_channel_created_idx \(channel_id=\? AND created_at>/);
    expect(await plan({ tokenName: 't' })).toMatch(/logs_token_name_created_idx \(token_name=\?\)/);
    expect(await plan({ username: 'u', modelName: 'gpt%', type: 2 })).toMatch(/logs_username_created_idx/);
    expect(await plan({ userId: 1, type: 2, start: 1 })).toMatch(/logs_user_created_idx/);
    const every = [
      { start: 1 },
      { userId: 1 },
      { type: 2 },
      { username: 'u' },
      { channelId: 3, start: 1 },
      { tokenName: 't', end: 2 },
      { userId: 1, tokenName: 't', modelName: 'gpt%', group: 'g', start: 1, end: 2 },
      { username: 'u', channelId: 3, type: 2, start: 1 },
      { modelName: 'gpt%', group: 'g', start: 1 },
    ];
    for (const w of every) expect(await plan(w)).not.toMatch(/TEMP B-TREE|SCAN logs$/);
  });
});

/** EXPLAIN needs literal SQL: numbers as they are, strings quoted. */
function inline(text: string, params: readonly unknown[]) {
  let i = 0;
  return text.replace(/\?/g, () => {
    const p = params[i++];
    return typeof p === 'string' ? `'${p.replace(/'/g, "''")}'` : String(p);
  });
}
