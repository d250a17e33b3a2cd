import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { refusal as refused } from '../../../test/rest-answers.ts';
import { createUser, loginAs, setupRoot } from '../../../test/users.ts';

type Headers = Record<string, string>;

describe('admin message management over /api/admin/messages', () => {
  let t: TestApp;
  let admin: Headers;
  let normal: Headers;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const send = (payload: object) => call('POST', '/api/admin/messages', admin, payload);

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    admin = (await loginAs(t, Role.Admin)).headers;
    normal = (await loginAs(t, Role.Common)).headers;
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(() => t.close());

  it('creates a message with de-duplicated recipients and reports its stats', async () => {
    const res = await send({
      title: '  Maintenance  ',
      content: ' Tonight **22:00** ',
      user_ids: [alice.id, bob.id, alice.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      title: 'Maintenance',
      content: 'Tonight **22:00**',
      format: 'markdown',
      stats: { total_recipients: 2, read_count: 0 },
    });
    expect(res.body.data.created_at).toBeGreaterThan(0);
  });

  it.each([
    [{ title: '   ', content: 'x', user_ids: [1] }, '请输入消息标题'],
    [{ content: 'x', user_ids: [1] }, '请输入消息标题'],
    [{ title: 'x', content: ' \n ', user_ids: [1] }, '请输入消息内容'],
    [{ title: 'x', content: 'y', user_ids: [] }, '请至少选择一个接收者'],
    [{ title: 'x', content: 'y' }, '请至少选择一个接收者'],
  ])('refuses %j with "%s"', async (payload, message) => {
    expect(await send(payload)).toEqual(refused(message));
  });

  it('refuses an unknown format and unknown recipients, creating nothing', async () => {
    const before = (await call('GET', '/api/admin/messages', admin)).body.data.total;
    const fmt = await send({ title: 'x', content: 'y', format: 'bbcode', user_ids: [alice.id] });
    expect(fmt).toEqual(refused('消息格式只能是 markdown 或 html'));
    const ghost = await send({ title: 'x', content: 'y', user_ids: [alice.id, 999999] });
    expect(ghost).toEqual(refused('接收者不存在：999999'));
    expect((await call('GET', '/api/admin/messages', admin)).body.data.total).toBe(before);
  });

  it('stores html as written (the console sanitises on display)', async () => {
    const html = '<p>Hi <img src=x onerror="alert(1)"></p>';
    const res = await send({ title: 'Html', content: html, format: 'html', user_ids: [bob.id] });
    expect(res.body.data).toMatchObject({ format: 'html', content: html });
  });

  it('lists newest first in style A with stats, and pages', async () => {
    const all = await call('GET', '/api/admin/messages?p=1&page_size=10', admin);
    expect(all.body.data).toMatchObject({ page: 1, page_size: 10, total: 2 });
    expect(all.body.data.items.map((m: { title: string }) => m.title)).toEqual(['Html', 'Maintenance']);
    expect(all.body.data.items[1].stats).toEqual({ total_recipients: 2, read_count: 0 });
    const second = await call('GET', '/api/admin/messages?p=2&page_size=1', admin);
    expect(second.body.data).toMatchObject({ page: 2, page_size: 1, total: 2 });
    expect(second.body.data.items[0].title).toBe('Maintenance');
    // new-api consoles send p=0 first and odd sizes; both are normalised.
    const odd = await call('GET', '/api/admin/messages?p=0&page_size=-5', admin);
    expect(odd.body.data).toMatchObject({ page: 1, page_size: 10 });
  });

  it('searches by keyword in title or content, literally', async () => {
    const search = (qs: string) => call('GET', `/api/admin/messages/search?${qs}`, admin);
    const titles = (r: Awaited<ReturnType<typeof search>>) => r.body.data.items.map((m: { title: string }) => m.title);
    expect(titles(await search('keyword=maint'))).toEqual(['Maintenance']);
    expect(titles(await search('keyword=22%3A00'))).toEqual(['Maintenance']);
    expect(titles(await search('keyword=onerror'))).toEqual(['Html']);
    expect((await search('keyword=%25')).body.data.total).toBe(0);
    expect((await search('keyword=')).body.data.total).toBe(2);
  });

  it('filters by created date only when both dates are given, end date inclusive', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const search = (qs: string) => call('GET', `/api/admin/messages/search?${qs}`, admin);
    expect((await search(`start_date=${day}&end_date=${day}`)).body.data.total).toBe(2);
    expect((await search('start_date=2020-01-01&end_date=2020-01-02')).body.data.total).toBe(0);
    expect((await search('start_date=2020-01-01')).body.data.total).toBe(2);
    const now = new Date();
    const from = new Date(now.getTime() - 60_000).toISOString();
    expect((await search(`start_date=${from}&end_date=${now.toISOString()}`)).body.data.total).toBe(2);
    expect(await search('start_date=yesterday&end_date=today')).toEqual(refused('日期格式无效'));
  });

  it('gets one message, its recipients, and refuses an unknown id', async () => {
    const list = (await call('GET', '/api/admin/messages', admin)).body.data.items;
    const id = list.find((m: { title: string }) => m.title === 'Maintenance').id;
    const one = await call('GET', `/api/admin/messages/${id}`, admin);
    expect(one.body.data).toMatchObject({ id, title: 'Maintenance', stats: { total_recipients: 2 } });
    const rec = await call('GET', `/api/admin/messages/${id}/recipients`, admin);
    expect(rec.body.data).toEqual([
      { user_id: alice.id, username: alice.username, display_name: expect.any(String), read_at: null },
      { user_id: bob.id, username: bob.username, display_name: expect.any(String), read_at: null },
    ]);
    expect(await call('GET', '/api/admin/messages/999999', admin)).toEqual(refused('消息不存在'));
    expect(await call('GET', '/api/admin/messages/999999/recipients', admin)).toEqual(refused('消息不存在'));
    expect(await call('GET', '/api/admin/messages/abc', admin)).toEqual(refused('id 必须是数字'));
  });

  it('updates title, format and content but never the recipients', async () => {
    const created = (await send({ title: 'Old', content: 'old', user_ids: [alice.id] })).body.data;
    const res = await call('PUT', `/api/admin/messages/${created.id}`, admin, {
      title: ' New ',
      content: '<b>new</b>',
      format: 'html',
      user_ids: [bob.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'New', content: '<b>new</b>', format: 'html' });
    expect(res.body.data.stats.total_recipients).toBe(1);
    const rec = await call('GET', `/api/admin/messages/${created.id}/recipients`, admin);
    expect(rec.body.data.map((r: { user_id: number }) => r.user_id)).toEqual([alice.id]);

    const blank = await call('PUT', `/api/admin/messages/${created.id}`, admin, { title: ' ', content: 'x' });
    expect(blank.body).toEqual({ success: false, message: '请输入消息标题' });
    const noContent = await call('PUT', `/api/admin/messages/${created.id}`, admin, { title: 'x', content: '' });
    expect(noContent.body).toEqual({ success: false, message: '请输入消息内容' });
    const missing = await call('PUT', '/api/admin/messages/999999', admin, { title: 'x', content: 'y' });
    expect(missing).toEqual(refused('消息不存在'));
  });

  it('deletes a message together with every receipt', async () => {
    const created = (await send({ title: 'Gone', content: 'soon', user_ids: [alice.id, bob.id] })).body.data;
    const del = await call('DELETE', `/api/admin/messages/${created.id}`, admin);
    expect(del).toEqual({ status: 200, body: { success: true, message: '' } });
    const receipts = await t.deps.db
      .selectFrom('message_recipients')
      .select('id')
      .where('message_id', '=', created.id)
      .execute();
    expect(receipts).toEqual([]);
    expect(await call('GET', `/api/admin/messages/${created.id}`, admin)).toEqual(refused('消息不存在'));
    expect(await call('DELETE', `/api/admin/messages/${created.id}`, admin)).toEqual(refused('消息不存在'));
  });

  it('refuses every admin path to a normal user with the role message, and to a visitor with 401', async () => {
    const paths: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string][] = [
      ['POST', '/api/admin/messages'],
      ['GET', '/api/admin/messages'],
      ['GET', '/api/admin/messages/search'],
      ['GET', '/api/admin/messages/1'],
      ['GET', '/api/admin/messages/1/recipients'],
      ['PUT', '/api/admin/messages/1'],
      ['DELETE', '/api/admin/messages/1'],
    ];
    for (const [method, url] of paths) {
      const payload = { title: 'x', content: 'y', user_ids: [alice.id] };
      expect(await call(method, url, normal, payload), `${method} ${url}`).toEqual(refused('无权进行此操作，权限不足'));
      expect((await call(method, url, {}, payload)).status, `${method} ${url}`).toBe(401);
    }
  });
});
