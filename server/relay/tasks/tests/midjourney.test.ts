import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOptions } from '../../../../test/relay-fixtures.ts';
import { IMAGINE_QUOTA, startTaskHarness, type TaskHarness, userRow, WHOLE_TIMELINE_MS } from './harness.ts';

let h: TaskHarness;
const START = 10_000_000;

beforeAll(async () => {
  h = await startTaskHarness();
});
afterAll(async () => {
  await h.close();
});

async function logsOf(userId: number) {
  return h.t.deps.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

describe('Midjourney submit and polling', () => {
  it('imagine is charged once at submit, polled to SUCCESS, fetch shows the forwarded image', async () => {
    const p = await h.payer(START);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'a red fox' });
    expect(sub.status).toBe(200);
    expect(sub.json.code).toBe(1);
    const mjId = String(sub.json.result);
    // The upstream got the channel key, never the client's token.
    const upstreamCall = h.mj.requests.at(-1)!;
    expect(upstreamCall.headers['mj-api-secret']).toBe('mj-upstream-secret');
    expect((await userRow(h.t, p.userId)).quota).toBe(START - IMAGINE_QUOTA);

    await h.poll();
    let f = await h.call('GET', `/mj/task/${mjId}/fetch`, p.key);
    expect(['NOT_START', 'SUBMITTED']).toContain(f.json.status);

    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    f = await h.call('GET', `/mj/task/${mjId}/fetch`, p.key);
    expect(f.json).toMatchObject({ id: mjId, action: 'IMAGINE', status: 'SUCCESS', progress: '100%' });
    expect(f.json.imageUrl).toBe(`https://gw.example.com/mj/image/${mjId}`);
    expect(f.json.buttons).toHaveLength(8);
    expect(f.json.properties).not.toHaveProperty('_switchyard');

    // Polling again changes nothing: still charged exactly once.
    await h.poll();
    const u = await userRow(h.t, p.userId);
    expect(u.quota).toBe(START - IMAGINE_QUOTA);
    expect(u.used_quota).toBe(IMAGINE_QUOTA);
    const logs = await logsOf(p.userId);
    expect(logs.map((l) => [l.type, l.model_name, l.quota])).toEqual([[2, 'mj_imagine', IMAGINE_QUOTA]]);
  });

  it('a task that fails upstream is refunded exactly once, with a refund log', async () => {
    const p = await h.payer(START, 1_000_000);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'please fail' });
    expect(sub.json.code).toBe(1);
    expect((await userRow(h.t, p.userId)).quota).toBe(START - IMAGINE_QUOTA);
    h.mj.advance(WHOLE_TIMELINE_MS);
    await Promise.all([h.poll(), h.poll()]);
    await h.poll();
    const f = await h.call('GET', `/mj/task/${sub.json.result}/fetch`, p.key);
    expect(f.json.status).toBe('FAILURE');
    expect(f.json.failReason).toContain('fake failure');
    const u = await userRow(h.t, p.userId);
    expect(u.quota).toBe(START);
    expect(u.used_quota).toBe(0);
    // The limited token that paid gets its remaining quota back too.
    const tok = await h.t.deps.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', p.tokenId)
      .executeTakeFirstOrThrow();
    expect([tok.remain_quota, tok.used_quota]).toEqual([1_000_000, 0]);
    const logs = await logsOf(p.userId);
    expect(logs.map((l) => [l.type, l.quota])).toEqual([
      [2, IMAGINE_QUOTA],
      [4, IMAGINE_QUOTA],
    ]);
    expect(logs[1].content).toContain('补偿');
    // What the console renders the two lines from (issue 22), beside new-api's Chinese.
    const id = String(sub.json.result);
    expect(logs[0].content).toBe(`Midjourney IMAGINE，任务 ID ${id}`);
    expect(JSON.parse(logs[0].other).message).toEqual({
      code: 'log.task_submitted',
      params: { platform: 'Midjourney', action: 'IMAGINE', task_id: id },
    });
    expect(JSON.parse(logs[1].other)).toEqual({
      task_refund: true,
      message: {
        code: 'log.task_refund_midjourney',
        params: { task_id: id, amount: { quota: IMAGINE_QUOTA }, reason: f.json.failReason },
      },
    });
  });

  it('codes 21 (waiting) and 22 (duplicate) are charged; other codes are refunded', async () => {
    const p = await h.payer(START);
    const waiting = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'open a modal' });
    expect(waiting.json.code).toBe(21);
    const dup = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'duplicate me' });
    expect(dup.json.code).toBe(22);
    expect((await userRow(h.t, p.userId)).quota).toBe(START - 2 * IMAGINE_QUOTA);

    const banned = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'something banned' });
    expect(banned.status).toBe(200);
    expect(banned.json).toMatchObject({ code: 24, description: 'banned prompt' });
    h.mj.nextSubmit = { code: 23, description: 'queue full' };
    const full = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'ok' });
    expect(full.json.code).toBe(23);
    const u = await userRow(h.t, p.userId);
    expect(u.quota).toBe(START - 2 * IMAGINE_QUOTA);
    const rows = await h.t.deps.db.selectFrom('midjourneys').selectAll().where('user_id', '=', p.userId).execute();
    expect(rows.map((r) => r.code).sort()).toEqual([21, 22]);
    expect(rows.find((r) => r.code === 21)!.status).toBe('MODAL');
    expect(await h.t.deps.db.selectFrom('quota_reservations').selectAll().execute()).toHaveLength(0);
  });

  it('mj-api-secret authenticates; bad tokens and bodies get Midjourney-shaped errors', async () => {
    const p = await h.payer(START);
    const ok = await h.call('POST', '/mj/submit/imagine', null, { prompt: 'cat' }, { 'mj-api-secret': p.key });
    expect(ok.json.code).toBe(1);
    const bad = await h.call('POST', '/mj/submit/imagine', 'sk-nope', { prompt: 'cat' });
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ code: 4, result: null });
    const invalid = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.description).toContain('prompt');
  });

  it('follow-up actions use the original task, which must have succeeded', async () => {
    const p = await h.payer(START);
    const other = await h.payer(START);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'a boat' });
    const id = String(sub.json.result);
    const early = await h.call('POST', '/mj/submit/change', p.key, { taskId: id, action: 'UPSCALE', index: 1 });
    expect(early.status).toBe(400);
    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    const stranger = await h.call('POST', '/mj/submit/change', other.key, { taskId: id, action: 'UPSCALE', index: 1 });
    expect(stranger.status).toBe(404);
    const up = await h.call('POST', '/mj/submit/action', p.key, {
      taskId: id,
      customId: 'MJ::JOB::upsample::1::fakehash',
    });
    expect(up.json.code).toBe(1);
    const simple = await h.call('POST', '/mj/submit/simple-change', p.key, { content: `${id} V2` });
    expect(simple.json.code).toBe(1);
    const rows = await h.t.deps.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('user_id', '=', p.userId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, Number(r.quota)])).toEqual([
      ['IMAGINE', IMAGINE_QUOTA],
      ['UPSCALE', 25_000],
      ['VARIATION', IMAGINE_QUOTA],
    ]);
  });

  it('list-by-condition answers only the caller tasks; image-seed and the image proxy work', async () => {
    const p = await h.payer(START);
    const other = await h.payer(START);
    const a = String((await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'one' })).json.result);
    const b = String((await h.call('POST', '/mj/submit/imagine', other.key, { prompt: 'two' })).json.result);
    const list = await h.call('POST', '/mj/task/list-by-condition', p.key, { ids: [a, b] });
    expect(list.json.map((x: { id: string }) => x.id)).toEqual([a]);
    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    const seed = await h.call('GET', `/mj/task/${a}/image-seed`, p.key);
    expect(seed.json).toMatchObject({ code: 1, result: `seed-${a}` });
    const img = await fetch(`${h.gateway}/mj/image/${a}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await img.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await fetch(`${h.gateway}/mj/image/unknown`)).status).toBe(404);
  });

  it('/{mode}/mj/... goes to the upstream as /mj-{mode}/mj/...; MjModeClearEnabled strips mode flags', async () => {
    const p = await h.payer(START);
    await setOptions(h.t.deps, { MjModeClearEnabled: 'true' });
    const sub = await h.call('POST', '/relax/mj/submit/imagine', p.key, { prompt: 'hills --fast --v 6' });
    expect(sub.json.code).toBe(1);
    const req = h.mj.requests.at(-1)!;
    expect(req.path).toBe('/mj-relax/mj/submit/imagine');
    expect(req.body.prompt).toBe('hills --v 6');
    const f = await h.call('GET', `/turbo/mj/task/${sub.json.result}/fetch`, p.key);
    expect(f.json.id).toBe(String(sub.json.result));
    expect((await h.call('POST', '/slow/mj/submit/imagine', p.key, { prompt: 'x' })).status).toBe(404);
    await setOptions(h.t.deps, { MjModeClearEnabled: 'false' });
  });

  it('MjNotifyEnabled posts status changes to the notifyHook, which the upstream never sees', async () => {
    const got: unknown[] = [];
    const { createServer } = await import('node:http');
    const hook = createServer((req, res) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => {
        got.push(JSON.parse(s));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const port = (hook.address() as { port: number }).port;
    await setOptions(h.t.deps, { MjNotifyEnabled: 'true' });
    const p = await h.payer(START);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, {
      prompt: 'notify me',
      notifyHook: `http://127.0.0.1:${port}/cb`,
    });
    expect(h.mj.requests.at(-1)!.body).not.toHaveProperty('notifyHook');
    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    await expect.poll(() => got.length).toBeGreaterThan(0);
    expect(got[0]).toMatchObject({ id: String(sub.json.result), status: 'SUCCESS' });
    await setOptions(h.t.deps, { MjNotifyEnabled: 'false' });
    hook.close();
  });

  it('the background poller runs on its own and stops cleanly', async () => {
    const { taskPollerOf } = await import('../routes.ts');
    const p = await h.payer(START);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'background' });
    h.mj.advance(WHOLE_TIMELINE_MS);
    const poller = taskPollerOf(h.t.deps)!;
    poller.start(20);
    await expect
      .poll(async () => (await h.call('GET', `/mj/task/${sub.json.result}/fetch`, p.key)).json.status, {
        timeout: 3000,
      })
      .toBe('SUCCESS');
    await poller.stop();
  });

  it('Midjourney-Plus channels (type 5) serve too; channels of other types never get task actions', async () => {
    const { insertChannel } = await import('../../../../test/relay-fixtures.ts');
    const { startFakeMidjourney } = await import('../../../../scripts/fake-upstream/midjourney.ts');
    const plus = await startFakeMidjourney();
    try {
      await insertChannel(h.t.deps, { type: 5, key: 'plus-secret', baseUrl: plus.url, models: ['mj_shorten'] });
      // An OpenAI channel that lists a task model by mistake is never a candidate, whatever its priority.
      const openai = await startFakeMidjourney();
      await insertChannel(h.t.deps, { type: 1, baseUrl: openai.url, models: ['mj_shorten'], priority: 100 });
      const p = await h.payer(START);
      for (let i = 0; i < 3; i++) {
        const r = await h.call('POST', '/mj/submit/shorten', p.key, { prompt: 'a very long prompt' });
        expect(r.json.code).toBe(1);
      }
      expect(plus.requests.at(-1)!.headers['mj-api-secret']).toBe('plus-secret');
      expect(openai.requests).toHaveLength(0);
      await openai.close();
      // mj_shorten has no ModelPrice entry here: the default $0.1 applies.
      expect((await userRow(h.t, p.userId)).quota).toBe(START - 3 * IMAGINE_QUOTA);
    } finally {
      await plus.close();
    }
  });
});
