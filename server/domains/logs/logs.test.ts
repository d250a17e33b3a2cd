import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, restHeaders, setupRoot } from '../../../test/users.ts';
import { insertChannel, insertLog, insertToken, nowS } from './logs.fixtures.ts';

const ROLE_MESSAGE = '无权进行此操作，权限不足';

describe('usage logs over /api/log', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let alice: { id: number; username: string; headers: Record<string, string> };
  let bob: { id: number; username: string; headers: Record<string, string> };
  let channelId: number;
  const base = nowS() - 3600;

  const get = async (url: string, headers?: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    const a = await createUser(t, { role: Role.Admin });
    admin = restHeaders(await login(t, a.username, a.password));
    const u1 = await createUser(t);
    const u2 = await createUser(t);
    alice = { ...u1, headers: restHeaders(await login(t, u1.username, u1.password)) };
    bob = { ...u2, headers: restHeaders(await login(t, u2.username, u2.password)) };
    channelId = await insertChannel(t, 'main-openai');
    const other = JSON.stringify({ model_ratio: 0.075, admin_info: { use_channel: [channelId, 9] } });
    // Alice: three consume rows an hour ago (two models, two tokens), one top-up, one in the last minute.
    await insertLog(t, { ...who(alice), created_at: base, model_name: 'gpt-4o-mini', channel_id: channelId, other });
    await insertLog(t, { ...who(alice), created_at: base + 10, model_name: 'gpt-4o', token_name: 'work', quota: 300 });
    await insertLog(t, { ...who(alice), created_at: base + 20, model_name: 'gpt-4o', group: 'vip', quota: 50 });
    await insertLog(t, { ...who(alice), created_at: base + 30, type: 1, quota: 5000, content: '通过兑换码充值' });
    await insertLog(t, { ...who(alice), created_at: nowS() - 5, quota: 7, prompt_tokens: 100, completion_tokens: 20 });
    // Bob: one consume row with an unparsable `other`.
    await insertLog(t, { ...who(bob), created_at: base + 40, quota: 1000, other: 'not json', channel_id: channelId });
  });
  afterAll(() => t.close());

  const who = (u: { id: number; username: string }) => ({ user_id: u.id, username: u.username });

  it('lists every log for an admin, newest first, as a style-A page with channel names', async () => {
    const { status, body } = await get('/api/log/?p=1&page_size=10', admin);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ total: 6, page: 1, page_size: 10 });
    const times = body.data.items.map((l: { created_at: number }) => l.created_at);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const bobs = body.data.items.find((l: { username: string }) => l.username === bob.username);
    expect(bobs).toMatchObject({
      channel: channelId,
      channel_name: 'main-openai',
      is_stream: false,
      other: 'not json',
    });
    const first = body.data.items.find(
      (l: { username: string; channel: number }) => l.channel === channelId && l.username === alice.username,
    );
    expect(JSON.parse(first.other).admin_info.use_channel).toEqual([channelId, 9]);
  });

  it('applies every admin filter', async () => {
    const count = async (qs: string) => (await get(`/api/log/?${qs}`, admin)).body.data.total;
    expect(await count(`username=${bob.username}`)).toBe(1);
    expect(await count('token_name=work')).toBe(1);
    expect(await count('model_name=gpt-4o')).toBe(2);
    expect(await count('model_name=gpt-4o%25')).toBe(6);
    expect(await count('type=1')).toBe(1);
    expect(await count('type=0')).toBe(6);
    expect(await count(`channel=${channelId}`)).toBe(2);
    expect(await count('group=vip')).toBe(1);
    expect(await count(`start_timestamp=${base + 10}&end_timestamp=${base + 30}`)).toBe(3);
    expect(await count('start_timestamp=&end_timestamp=&username=')).toBe(6);
  });

  it('pages with p 1-based (below 1 is 1) and a default size for 0', async () => {
    const p2 = await get('/api/log/?p=2&page_size=4', admin);
    expect(p2.body.data).toMatchObject({ page: 2, page_size: 4, total: 6 });
    expect(p2.body.data.items).toHaveLength(2);
    const p0 = await get('/api/log/?p=0&page_size=0', admin);
    expect(p0.body.data).toMatchObject({ page: 1, page_size: 10 });
    // new-api reads an unparsable number as 0 (strconv.Atoi): the first page, no filter (issue #21).
    const bad = await get('/api/log/?p=abc&end_timestamp=NaN', admin);
    expect(bad.status).toBe(200);
    expect(bad.body.data).toMatchObject({ page: 1, page_size: 10, total: 6 });
  });

  it('keeps the all-users list and stat for admins', async () => {
    for (const url of ['/api/log/', '/api/log/stat', '/api/log/search?keyword=1']) {
      const res = await get(url, alice.headers);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toEqual({ success: false, message: ROLE_MESSAGE });
    }
    expect((await get('/api/log/')).status).toBe(401);
    expect((await get('/api/log/self/')).status).toBe(401);
  });

  it('shows a user only their own logs, in the self view, ignoring admin-only filters', async () => {
    const { body } = await get(
      `/api/log/self/?p=1&page_size=50&username=${bob.username}&channel=${channelId}`,
      alice.headers,
    );
    expect(body.data.total).toBe(5);
    for (const l of body.data.items) {
      expect(l.user_id).toBe(alice.id);
      expect(l.channel_name).toBe('');
      expect(l.id).toBeLessThan(1024);
      expect(l.other).not.toContain('admin_info');
    }
    const withOther = body.data.items.find((l: { other: string }) => l.other.includes('model_ratio'));
    expect(JSON.parse(withOther.other)).toEqual({ model_ratio: 0.075 });
    const bobs = (await get('/api/log/self/', bob.headers)).body.data;
    expect(bobs.total).toBe(1);
    // An `other` that cannot be cleaned of admin_info is not sent at all.
    expect(bobs.items[0].other).toBe('');
  });

  it('replaces self ids by id % 1024 and caps the self page size at 100', async () => {
    const solo = await createUser(t);
    const headers = restHeaders(await login(t, solo.username, solo.password));
    await insertLog(t, { id: 5000, created_at: base, user_id: solo.id, username: solo.username, type: 0 });
    const { body } = await get('/api/log/self/?page_size=500', headers);
    expect(body.data.page_size).toBe(100);
    expect(body.data.items[0].id).toBe(5000 % 1024);
    const adminView = await get(`/api/log/?username=${solo.username}`, admin);
    expect(adminView.body.data.items[0].id).toBe(5000);
  });

  it('sums consumed quota in the range and counts the last minute for rpm/tpm', async () => {
    const all = (await get(`/api/log/stat?start_timestamp=${base}&end_timestamp=${base + 100}`, admin)).body.data;
    // Consume rows only: 100 + 300 + 50 (alice) + 1000 (bob); the top-up is not consumption.
    expect(all).toEqual({ quota: 1450, rpm: 1, tpm: 120 });
    const bobOnly = (await get(`/api/log/stat?username=${bob.username}`, admin)).body.data;
    expect(bobOnly).toEqual({ quota: 1000, rpm: 0, tpm: 0 });
    const self = (await get(`/api/log/self/stat?start_timestamp=${base}&username=${bob.username}`, alice.headers)).body
      .data;
    expect(self).toEqual({ quota: 457, rpm: 1, tpm: 120 });
    const vip = (await get('/api/log/self/stat?group=vip', alice.headers)).body.data;
    expect(vip.quota).toBe(50);
  });

  it('searches: admins by type or content prefix, users by type among their own', async () => {
    const byType = (await get('/api/log/search?keyword=1', admin)).body.data;
    expect(byType.map((l: { type: number }) => l.type)).toEqual([1]);
    const byContent = (await get(`/api/log/search?keyword=${encodeURIComponent('通过兑换')}`, admin)).body.data;
    expect(byContent).toHaveLength(1);
    const mine = (await get('/api/log/self/search?keyword=2', alice.headers)).body.data;
    expect(mine).toHaveLength(4);
    expect(
      mine.every((l: { user_id: number; channel_name: string }) => l.user_id === alice.id && l.channel_name === ''),
    ).toBe(true);
    expect((await get('/api/log/self/search?keyword=x', alice.headers)).body.data).toEqual([]);
  });

  it('answers the public key lookup with CORS, with or without sk-', async () => {
    const key = 'k'.repeat(48);
    const tokenId = await insertToken(t, bob.id, key);
    await insertLog(t, { ...who(bob), token_id: tokenId, other: JSON.stringify({ admin_info: { x: 1 }, frt: 300 }) });
    for (const k of [key, `sk-${key}`]) {
      const res = await get(`/api/log/token?key=${k}`);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.data).toHaveLength(1);
      expect(JSON.parse(res.body.data[0].other)).toEqual({ frt: 300 });
    }
    const unknown = await get('/api/log/token?key=sk-nope');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ success: false, message: '令牌不存在' });
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    const pre = await t.app.inject({ method: 'OPTIONS', url: '/api/log/token' });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  it('deletes logs older than a target time (admins only)', async () => {
    const t2 = await createTestApp();
    try {
      await setupRoot(t2);
      const a = await createUser(t2, { role: Role.Admin });
      const h = restHeaders(await login(t2, a.username, a.password));
      const u = await createUser(t2);
      const uh = restHeaders(await login(t2, u.username, u.password));
      await insertLog(t2, { user_id: u.id, username: u.username, created_at: 1000 });
      await insertLog(t2, { user_id: u.id, username: u.username, created_at: 2000 });
      const del = (url: string, headers: Record<string, string>) => t2.app.inject({ method: 'DELETE', url, headers });
      const refused = await del('/api/log/?target_timestamp=1500', uh);
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toEqual({ success: false, message: ROLE_MESSAGE });
      const missing = await del('/api/log/', h);
      expect(missing.statusCode).toBe(200);
      expect(missing.json()).toEqual({ success: false, message: '请指定目标时间戳' });
      const ok = await del('/api/log/?target_timestamp=1500', h);
      expect(ok.json()).toEqual({ success: true, message: '', data: 1 });
      expect((await t2.app.inject({ method: 'GET', url: '/api/log/', headers: h })).json().data.total).toBe(1);
    } finally {
      await t2.close();
    }
  });
});
