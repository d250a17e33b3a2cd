import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskHarness, type TaskHarness, userRow, WHOLE_TIMELINE_MS } from './harness.ts';

let h: TaskHarness;
const START = 10_000_000;
const MUSIC = 50_000;
const LYRICS = 5_000;

beforeAll(async () => {
  h = await startTaskHarness();
});
afterAll(async () => {
  await h.close();
});

describe('Suno submit and polling', () => {
  it('music is charged once at submit and polled to SUCCESS with audio clips', async () => {
    const p = await h.payer(START);
    const sub = await h.call('POST', '/suno/submit/music', p.key, { prompt: 'a song about foxes', mv: 'chirp-v3-5' });
    expect(sub.status).toBe(200);
    expect(sub.json.code).toBe('success');
    const id = String(sub.json.data);
    expect(h.suno.requests.at(-1)!.headers.authorization).toBe('Bearer suno-upstream-key');
    expect((await userRow(h.t, p.userId)).quota).toBe(START - MUSIC);

    await h.poll();
    let f = await h.call('GET', `/suno/fetch/${id}`, p.key);
    expect(f.json.data).toMatchObject({ task_id: id, action: 'MUSIC' });
    h.suno.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    await h.poll();
    f = await h.call('GET', `/suno/fetch/${id}`, p.key);
    expect(f.json.data).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(f.json.data.data[0].audio_url).toMatch(/\.mp3$/);
    expect(f.json.data.finish_time).toBeGreaterThan(0);
    const u = await userRow(h.t, p.userId);
    expect(u.quota).toBe(START - MUSIC);
    expect(u.used_quota).toBe(MUSIC);
  });

  it('lyrics fail upstream: refunded exactly once with a refund log', async () => {
    const p = await h.payer(START, 1_000_000);
    const sub = await h.call('POST', '/suno/submit/lyrics', p.key, { prompt: 'please fail' });
    expect(sub.json.code).toBe('success');
    expect((await userRow(h.t, p.userId)).quota).toBe(START - LYRICS);
    h.suno.advance(WHOLE_TIMELINE_MS);
    await Promise.all([h.poll(), h.poll()]);
    await h.poll();
    const list = await h.call('POST', '/suno/fetch', p.key, { ids: [sub.json.data] });
    expect(list.json.data[0]).toMatchObject({ status: 'FAILURE', action: 'LYRICS' });
    expect(list.json.data[0].fail_reason).toContain('fake failure');
    expect((await userRow(h.t, p.userId)).quota).toBe(START);
    const tok = await h.t.deps.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', p.tokenId)
      .executeTakeFirstOrThrow();
    expect([tok.remain_quota, tok.used_quota]).toEqual([1_000_000, 0]);
    const logs = await h.t.deps.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', p.userId)
      .orderBy('id')
      .execute();
    expect(logs.map((l) => [l.type, l.model_name, l.quota])).toEqual([
      [2, 'suno_lyrics', LYRICS],
      [4, 'suno_lyrics', LYRICS],
    ]);
    // What the console renders the two lines from (issue 22), beside new-api's Chinese.
    const id = String(sub.json.data);
    const reason = String(list.json.data[0].fail_reason);
    expect(logs.map((l) => l.content)).toEqual([
      `Suno LYRICS，任务 ID ${id}`,
      `Suno 任务失败 ${id}，补偿 ${LYRICS} 额度，原因：${reason}`,
    ]);
    expect(logs.map((l) => JSON.parse(l.other).message)).toEqual([
      { code: 'log.task_submitted', params: { platform: 'Suno', action: 'LYRICS', task_id: id } },
      { code: 'log.task_refund_suno', params: { task_id: id, amount: { quota: LYRICS }, reason } },
    ]);
  });

  it('a refused submit is refunded and passed through; bad input is a 400 in Suno shape', async () => {
    const p = await h.payer(START);
    const banned = await h.call('POST', '/suno/submit/music', p.key, { prompt: 'banned words' });
    expect(banned.status).toBe(400);
    expect(banned.json).toMatchObject({ code: 'banned_prompt' });
    expect((await userRow(h.t, p.userId)).quota).toBe(START);
    const empty = await h.call('POST', '/suno/submit/music', p.key, {});
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ data: null });
    const none = await h.call('POST', '/suno/submit/music', null, { prompt: 'x' });
    expect(none.status).toBe(401);
    expect(await h.t.deps.db.selectFrom('quota_reservations').selectAll().execute()).toHaveLength(0);
  });

  it('fetch only shows the caller tasks', async () => {
    const p = await h.payer(START);
    const other = await h.payer(START);
    const id = String((await h.call('POST', '/suno/submit/music', p.key, { prompt: 'mine' })).json.data);
    expect((await h.call('GET', `/suno/fetch/${id}`, other.key)).status).toBe(404);
    expect((await h.call('POST', '/suno/fetch', other.key, { ids: [id] })).json.data).toEqual([]);
  });

  it('too little quota: refused before the upstream is called', async () => {
    const p = await h.payer(100);
    const before = h.suno.requests.length;
    const r = await h.call('POST', '/suno/submit/music', p.key, { prompt: 'poor' });
    expect(r.status).toBe(403);
    expect(h.suno.requests.length).toBe(before);
  });
});
