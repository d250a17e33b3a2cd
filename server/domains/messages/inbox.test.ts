import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';

type Headers = Record<string, string>;

describe('the inbox over /api/user/messages', () => {
  let t: TestApp;
  let admin: Headers;
  let a: Awaited<ReturnType<typeof loginAs>>;
  let b: Awaited<ReturnType<typeof loginAs>>;
  const ids: Record<string, number> = {};

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const unread = async (h: Headers) => (await call('GET', '/api/user/messages/unread_count', h)).body.data;

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    admin = (await loginAs(t, Role.Admin)).headers;
    a = await loginAs(t);
    b = await loginAs(t);
    for (const [title, to] of [
      ['first', [a.user.id, b.user.id]],
      ['second', [a.user.id]],
      ['only-b', [b.user.id]],
    ] as const) {
      const res = await call('POST', '/api/admin/messages', admin, { title, content: `**${title}**`, user_ids: to });
      ids[title] = res.body.data.id;
    }
  });
  afterAll(() => t.close());

  it('lists only my own messages, newest first, unread', async () => {
    const res = await call('GET', '/api/user/messages?p=1&page_size=10', a.headers);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.items).toEqual([
      {
        id: ids.second,
        title: 'second',
        content: '**second**',
        format: 'markdown',
        created_at: expect.any(Number),
        read_at: null,
        is_read: false,
      },
      expect.objectContaining({ id: ids.first, is_read: false }),
    ]);
    const paged = await call('GET', '/api/user/messages?p=2&page_size=1', a.headers);
    expect(paged.body.data.items.map((m: { id: number }) => m.id)).toEqual([ids.first]);
    expect(paged.body.data.total).toBe(2);
  });

  it('counts unread messages per user', async () => {
    expect(await unread(a.headers)).toEqual({ unread_count: 2 });
    expect(await unread(b.headers)).toEqual({ unread_count: 2 });
  });

  it('marks read idempotently, keeping the first read time', async () => {
    const first = await call('PUT', `/api/user/messages/${ids.first}/read`, a.headers);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: ids.first, is_read: true, read_at: expect.any(Number) });
    const again = await call('PUT', `/api/user/messages/${ids.first}/read`, a.headers);
    expect(again.body.data.read_at).toBe(first.body.data.read_at);
    expect(await unread(a.headers)).toEqual({ unread_count: 1 });
    // The other recipient's receipt is untouched.
    expect(await unread(b.headers)).toEqual({ unread_count: 2 });
    const one = await call('GET', `/api/user/messages/${ids.first}`, a.headers);
    expect(one.body.data).toMatchObject({ title: 'first', is_read: true });
  });

  it('shows the admin who has read, in stats and in recipients', async () => {
    const msg = await call('GET', `/api/admin/messages/${ids.first}`, admin);
    expect(msg.body.data.stats).toEqual({ total_recipients: 2, read_count: 1 });
    const rec = (await call('GET', `/api/admin/messages/${ids.first}/recipients`, admin)).body.data;
    const readAt = Object.fromEntries(
      rec.map((r: { user_id: number; read_at: number | null }) => [r.user_id, r.read_at]),
    );
    expect(readAt[a.user.id]).toEqual(expect.any(Number));
    expect(readAt[b.user.id]).toBeNull();
  });

  it("refuses another user's message as not found, to read or to mark", async () => {
    for (const [method, url] of [
      ['GET', `/api/user/messages/${ids['only-b']}`],
      ['PUT', `/api/user/messages/${ids['only-b']}/read`],
      ['GET', '/api/user/messages/999999'],
      ['PUT', '/api/user/messages/999999/read'],
    ] as const) {
      const res = await call(method, url, a.headers);
      expect(res, `${method} ${url}`).toEqual({ status: 200, body: { success: false, message: '消息不存在' } });
    }
    expect(await unread(b.headers)).toEqual({ unread_count: 2 });
  });

  it('requires a login', async () => {
    expect((await call('GET', '/api/user/messages', {})).status).toBe(401);
    expect((await call('GET', '/api/user/messages/unread_count', {})).status).toBe(401);
  });

  it('drops deleted messages from the inbox and the unread count', async () => {
    await call('DELETE', `/api/admin/messages/${ids['only-b']}`, admin);
    expect(await unread(b.headers)).toEqual({ unread_count: 1 });
    const list = await call('GET', '/api/user/messages', b.headers);
    expect(list.body.data.items.map((m: { id: number }) => m.id)).toEqual([ids.first]);
  });

  it('serves the same through tRPC, with the same rules', async () => {
    const adminRow = { id: (await loginAs(t, Role.Admin)).user.id, role: Role.Admin };
    const asAdmin = trpcCaller(t, adminRow);
    const asA = trpcCaller(t, { id: a.user.id, role: Role.Common });
    const asB = trpcCaller(t, { id: b.user.id, role: Role.Common });

    await expect(asAdmin.messages.create({ title: ' ', content: 'x', userIds: [a.user.id] })).rejects.toThrow(
      '请输入消息标题',
    );
    await expect(asA.messages.list({ page: 1, pageSize: 10 })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    const m = await asAdmin.messages.create({ title: 'rpc', content: 'hello', format: 'html', userIds: [a.user.id] });
    expect((await asAdmin.messages.list({ page: 1, pageSize: 10, keyword: 'rpc' })).items).toHaveLength(1);
    expect(await asA.inbox.unreadCount()).toEqual({ unread_count: 2 });
    await expect(asB.inbox.get({ id: m.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: '消息不存在' });
    await expect(asB.inbox.markRead({ id: m.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await asA.inbox.markRead({ id: m.id })).toMatchObject({ is_read: true });
    expect((await asAdmin.messages.recipients({ id: m.id }))[0].read_at).toEqual(expect.any(Number));
    expect(await asAdmin.messages.update({ id: m.id, title: 'rpc2', content: 'x', format: 'markdown' })).toMatchObject({
      title: 'rpc2',
      stats: { total_recipients: 1, read_count: 1 },
    });
    await asAdmin.messages.remove({ id: m.id });
    await expect(asAdmin.messages.get({ id: m.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await asA.inbox.list({ page: 1, pageSize: 10 })).total).toBe(2);
  });
});
