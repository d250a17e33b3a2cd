import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { insertToken } from '../../../test/relay-fixtures.ts';
import { loginAs, setOption, setupRoot } from '../../../test/users.ts';
import { startTaskHarness, type TaskHarness } from '../../relay/tasks/tests/harness.ts';

let h: TaskHarness;
let userA: Awaited<ReturnType<typeof loginAs>>;
let userB: Awaited<ReturnType<typeof loginAs>>;
let admin: Awaited<ReturnType<typeof loginAs>>;
let mjA: string;
let mjB: string;
let sunoA: string;

beforeAll(async () => {
  h = await startTaskHarness();
  await setupRoot(h.t);
  // The task lists' April 2025 shapes (plain arrays); 2026's are in test/console-2026/lists.test.ts.
  await setOption(h.t, 'ApiCompatContract', '2025-04');
  userA = await loginAs(h.t);
  userB = await loginAs(h.t);
  admin = await loginAs(h.t, Role.Admin);
  for (const u of [userA, userB])
    await h.t.deps.db.updateTable('users').set({ quota: 10_000_000 }).where('id', '=', u.user.id).execute();
  const keyA = (await insertToken(h.t.deps, userA.user.id, { unlimited: true })).key;
  const keyB = (await insertToken(h.t.deps, userB.user.id, { unlimited: true })).key;
  mjA = String((await h.call('POST', '/mj/submit/imagine', keyA, { prompt: 'from A' })).json.result);
  mjB = String((await h.call('POST', '/mj/submit/imagine', keyB, { prompt: 'from B' })).json.result);
  sunoA = String((await h.call('POST', '/suno/submit/music', keyA, { prompt: 'A sings' })).json.data);
  await h.call('POST', '/suno/submit/lyrics', keyB, { prompt: 'B writes' });
});
afterAll(async () => {
  await h.close();
});

async function get(url: string, headers: Record<string, string>) {
  const res = await h.t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as { success: boolean; data: Record<string, unknown>[] } };
}

describe('/api/mj and /api/task', () => {
  it('a user sees only their own drawings; the channel filter is ignored for them', async () => {
    const r = await get(`/api/mj/self?p=0&channel_id=999`, userA.headers);
    expect(r.body.success).toBe(true);
    expect(r.body.data.map((x) => x.mj_id)).toEqual([mjA]);
    expect(r.body.data[0].properties).not.toContain('_switchyard');
    expect(r.body.data[0].image_url).toBe('');
  });

  it('only admins reach the all-users lists, with channel and id filters, 10 per page', async () => {
    for (const url of ['/api/mj/', '/api/task/']) {
      const res = await get(url, userA.headers);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    }
    const all = await get('/api/mj/?p=0', admin.headers);
    expect(all.body.data.map((x) => x.mj_id).sort()).toEqual([mjA, mjB].sort());
    expect((await get(`/api/mj/?channel_id=${h.mjChannel + 100}`, admin.headers)).body.data).toEqual([]);
    expect((await get(`/api/mj/?mj_id=${mjB}`, admin.headers)).body.data).toHaveLength(1);
    expect((await get('/api/mj/?p=1', admin.headers)).body.data).toEqual([]);
    const tasks = await get(`/api/task/?channel_id=${h.sunoChannel}&platform=suno`, admin.headers);
    expect(tasks.body.data).toHaveLength(2);
    expect((await get('/api/task/?action=LYRICS', admin.headers)).body.data).toHaveLength(1);
  });

  it('a user sees only their own music tasks, filters by task_id and time', async () => {
    const mine = await get('/api/task/self?p=0', userA.headers);
    expect(mine.body.data.map((x) => x.task_id)).toEqual([sunoA]);
    expect(mine.body.data[0].properties).toEqual({ input: 'A sings' });
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await get(`/api/task/self?start_timestamp=${future}`, userA.headers)).body.data).toEqual([]);
    expect((await get(`/api/task/self?task_id=nope`, userA.headers)).body.data).toEqual([]);
  });

  it("new-api's consoles get no lease or poll-backoff columns of the task lifecycle", async () => {
    const rows = [
      ...(await get('/api/task/self?p=0', userA.headers)).body.data,
      ...(await get('/api/task/?p=0', admin.headers)).body.data,
      ...(await get('/api/mj/self?p=0', userA.headers)).body.data,
      ...(await get('/api/mj/?p=0', admin.headers)).body.data,
    ];
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row).toHaveProperty('status');
      expect(row).not.toHaveProperty('lease_until');
      expect(row).not.toHaveProperty('next_poll_at');
    }
  });

  it('forwarded image links once the task succeeded; drawings filter by time in seconds or milliseconds', async () => {
    h.mj.advance(60_000);
    await h.poll();
    const r = await get(`/api/mj/self?mj_id=${mjA}`, userA.headers);
    expect(r.body.data[0].image_url).toBe(`https://gw.example.com/mj/image/${mjA}`);
    const past = Date.now() - 3_600_000;
    expect((await get(`/api/mj/self?start_timestamp=${past}`, userA.headers)).body.data).toHaveLength(1);
    expect((await get(`/api/mj/self?end_timestamp=${Math.floor(past / 1000)}`, userA.headers)).body.data).toEqual([]);
    expect((await get('/api/mj/self', {})).status).toBe(401);
  });
});
