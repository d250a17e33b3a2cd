import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../../shared/constants.ts';
import { planFields } from '../../../../shared/schemas/subscriptions.ts';
import { setOptions } from '../../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../../runtime.ts';
import { createMjPollJob } from '../midjourney/poll.ts';
import { createSunoPollJob } from '../suno/poll.ts';
import { IMAGINE_QUOTA, startTaskHarness, type TaskHarness, userRow, WHOLE_TIMELINE_MS } from './harness.ts';

/*
 * Midjourney and Suno on the one task lifecycle (issue 40): a failed task goes back to whoever paid
 * (a subscription plan, not the wallet), a task stuck past TaskTimeoutMinutes is failed and refunded
 * once however many pollers race, and two pollers (two instances' jobs, not one coalesced run) never
 * both ask the upstream about one task.
 */

let h: TaskHarness;
const START = 10_000_000;
const MUSIC = 50_000;

beforeAll(async () => {
  h = await startTaskHarness();
});
afterAll(async () => {
  await h.close();
});

const logsOf = (userId: number) =>
  h.t.deps.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();

/** Two poll jobs as two instances would run them: separate jobs on one database, started together. */
async function racePolls(make: typeof createMjPollJob) {
  const rt = relayRuntimeOf(h.t.deps)!;
  const [a, b] = [make(rt), make(rt)];
  await Promise.all([a(), b()]);
  await rt.drain();
}

describe('Midjourney and Suno on the task lifecycle', () => {
  it('a failed drawing paid from a subscription plan is refunded to the plan, not the wallet', async () => {
    const plan = await h.t.deps.services.subscriptions.plans.create({
      from: 'new-api',
      fields: planFields.parse({ title: 'Drawing plan', duration_unit: 'day', duration_value: 30, total_amount: 1e6 }),
    });
    const p = await h.payer(START);
    await h.t.deps.services.subscriptions.users.grant({ id: 1, role: Role.Root }, p.userId, plan.id);
    const pool = async () =>
      Number(
        (
          await h.t.deps.db
            .selectFrom('user_subscriptions')
            .select('amount_used')
            .where('user_id', '=', p.userId)
            .executeTakeFirstOrThrow()
        ).amount_used,
      );

    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'please fail' });
    expect(sub.json.code).toBe(1);
    expect(await pool()).toBe(IMAGINE_QUOTA);
    expect((await userRow(h.t, p.userId)).quota).toBe(START);

    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    const f = await h.call('GET', `/mj/task/${sub.json.result}/fetch`, p.key);
    expect(f.json.status).toBe('FAILURE');
    // The plan has its drawing back; the wallet, which never paid, gained nothing.
    expect(await pool()).toBe(0);
    const u = await userRow(h.t, p.userId);
    expect([u.quota, u.used_quota]).toEqual([START, 0]);
    // (The grant's own row aside: the drawing's charge and its refund.)
    const logs = (await logsOf(p.userId)).filter((l) => l.type === 2 || l.type === 4);
    expect(logs.map((l) => [l.type, l.quota])).toEqual([
      [2, IMAGINE_QUOTA],
      [4, IMAGINE_QUOTA],
    ]);
    expect(logs[1].content).toBe(`构图失败 ${sub.json.result}，补偿 ${IMAGINE_QUOTA} 额度，原因：${f.json.failReason}`);
  });

  it('a Suno task stuck past TaskTimeoutMinutes is failed and refunded exactly once by racing pollers', async () => {
    const p = await h.payer(START, 1_000_000);
    const sub = await h.call('POST', '/suno/submit/music', p.key, { prompt: 'a song that never ends' });
    expect(sub.json.code).toBe('success');
    const id = String(sub.json.data);
    expect((await userRow(h.t, p.userId)).quota).toBe(START - MUSIC);
    await setOptions(h.t.deps, { TaskTimeoutMinutes: '5' });
    try {
      // Submitted six minutes ago; the upstream still has it queued (its clock never moved).
      await h.t.deps.db
        .updateTable('tasks')
        .set({ submit_time: Math.floor(Date.now() / 1000) - 360 })
        .where('task_id', '=', id)
        .execute();
      await racePolls(createSunoPollJob);
      await h.poll();
    } finally {
      await setOptions(h.t.deps, { TaskTimeoutMinutes: '120' });
    }
    const f = await h.call('GET', `/suno/fetch/${id}`, p.key);
    expect(f.json.data).toMatchObject({ status: 'FAILURE', fail_reason: '任务超时：5 分钟内未完成' });
    expect(f.json.data.finish_time).toBeGreaterThan(0);
    const u = await userRow(h.t, p.userId);
    expect([u.quota, u.used_quota]).toEqual([START, 0]);
    const tok = await h.t.deps.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', p.tokenId)
      .executeTakeFirstOrThrow();
    expect([tok.remain_quota, tok.used_quota]).toEqual([1_000_000, 0]);
    const logs = await logsOf(p.userId);
    expect(logs.map((l) => [l.type, l.quota, l.model_name])).toEqual([
      [2, MUSIC, 'suno_music'],
      [4, MUSIC, 'suno_music'],
    ]);
    expect(logs[1].content).toContain('任务超时');
  });

  it('two pollers racing over one drawing ask the upstream about it once', async () => {
    const p = await h.payer(START);
    const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: 'one poll only' });
    const mjId = String(sub.json.result);
    const asked = () =>
      h.mj.requests.filter(
        (r) => r.path === '/mj/task/list-by-condition' && (r.body.ids as string[] | undefined)?.includes(mjId),
      ).length;
    expect(asked()).toBe(0);
    await racePolls(createMjPollJob);
    expect(asked()).toBe(1);
    // Its backoff holds it back from the next round; once due, one poller asks again and it finishes.
    await racePolls(createMjPollJob);
    expect(asked()).toBe(1);
    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    expect(asked()).toBe(2);
    const f = await h.call('GET', `/mj/task/${mjId}/fetch`, p.key);
    expect(f.json.status).toBe('SUCCESS');
    expect((await userRow(h.t, p.userId)).quota).toBe(START - IMAGINE_QUOTA);
  });

  it('two pollers racing over one Suno task ask the upstream about it once', async () => {
    const p = await h.payer(START);
    const sub = await h.call('POST', '/suno/submit/music', p.key, { prompt: 'a duet' });
    const id = String(sub.json.data);
    const asked = () =>
      h.suno.requests.filter((r) => r.path === '/suno/fetch' && (r.body.ids as string[] | undefined)?.includes(id))
        .length;
    await racePolls(createSunoPollJob);
    expect(asked()).toBe(1);
  });

  /** The poll requests (path `path`) that asked about any of `ids`, each as the ids it carried. */
  const askedAbout = (requests: { path: string; body: Record<string, unknown> }[], path: string, ids: string[]) =>
    requests
      .filter((r) => r.path === path && (r.body.ids as string[] | undefined)?.some((id) => ids.includes(id)))
      .map((r) => r.body.ids as string[]);

  it('one poll turn asks the Midjourney upstream about five drawings of one channel in one call', async () => {
    const p = await h.payer(START);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sub = await h.call('POST', '/mj/submit/imagine', p.key, { prompt: `batch drawing ${i}` });
      expect(sub.json.code).toBe(1);
      ids.push(String(sub.json.result));
    }
    h.mj.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    const calls = askedAbout(h.mj.requests, '/mj/task/list-by-condition', ids);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(expect.arrayContaining(ids));
    for (const id of ids) {
      const f = await h.call('GET', `/mj/task/${id}/fetch`, p.key);
      expect(f.json).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    }
    expect((await userRow(h.t, p.userId)).quota).toBe(START - 5 * IMAGINE_QUOTA);
  });

  it('one poll turn asks the Suno upstream about five tasks of one channel in one call', async () => {
    const p = await h.payer(START);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sub = await h.call('POST', '/suno/submit/music', p.key, { prompt: `batch song ${i}` });
      expect(sub.json.code).toBe('success');
      ids.push(String(sub.json.data));
    }
    h.suno.advance(WHOLE_TIMELINE_MS);
    await h.poll();
    const calls = askedAbout(h.suno.requests, '/suno/fetch', ids);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(expect.arrayContaining(ids));
    const list = await h.call('POST', '/suno/fetch', p.key, { ids });
    expect(list.json.data).toHaveLength(5);
    for (const t of list.json.data) expect(t).toMatchObject({ status: 'SUCCESS', progress: '100%' });
  });
});
