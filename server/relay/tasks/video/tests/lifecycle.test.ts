import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { Role } from '../../../../../shared/constants.ts';
import { planFields } from '../../../../../shared/schemas/subscriptions.ts';
import { RelayError } from '../../../errors.ts';
import { netCharge, startVideoHarness, type VideoHarness, type VideoPayer } from './harness.ts';

/*
 * The video core end to end (issue 40) against the strict Sora fake through the real Sora adapter:
 * the price taken at submit, settlement on what was produced, a failed or timed-out job refunded
 * exactly once however many pollers and readers race, parallel submits on a small token, isolation,
 * and the ledger (balances = log rows). Doors are tested by their engineers on the same harness.
 */

const STEP_MS = 1000;
const QPU = 500_000;

let h: VideoHarness;
let sora: FakeSora;

beforeAll(async () => {
  h = await startVideoHarness();
  sora = await startFakeSora({ key: 'sora-upstream-secret', stepMs: STEP_MS });
  await h.channel({
    type: ChannelType.Sora,
    key: 'sora-upstream-secret',
    baseUrl: sora.url,
    models: ['sora-2', 'sora-2-pro'],
    groups: ['default', 'vip'],
  });
  await h.setOptions({
    ModelPrice: JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3 }),
    GroupRatio: JSON.stringify({ default: 1, vip: 1.5 }),
  });
});

afterAll(async () => {
  await h?.close();
  await sora?.close();
});

const meta = { ip: '127.0.0.1', requestId: 'req-test', door: 'openai' as const };

async function submit(payer: VideoPayer, req: Partial<Parameters<VideoHarness['core']['submit']>[1]> = {}) {
  return h.core.submit(await h.principal(payer), { model: 'sora-2', prompt: 'a red fox in snow', ...req }, meta);
}

/** Moves the fake past a whole job and makes the row due for pollers and readers. */
async function finish(id: string) {
  sora.advance(11 * STEP_MS);
  await h.due(id);
}

/** initial = wallet now + consumed - refunded, by the log rows alone. */
async function expectLedgerAgrees(payer: VideoPayer, initial: number) {
  const l = await h.ledger(payer);
  const net = netCharge(l.logs);
  expect(Number(l.user.quota) + net).toBe(initial);
  expect(Number(l.user.used_quota)).toBe(net);
  expect(Number(l.token?.used_quota)).toBe(net);
  expect(l.reservations.filter((r) => Number(r.user_id) === payer.userId)).toHaveLength(0);
  return { l, net };
}

describe('video core', () => {
  it('charges price x seconds x size multiplier x group ratio at submit and says "reserved" in the log', async () => {
    const payer = await h.payer(10_000_000, undefined, { group: 'vip' });
    const v = await submit(payer, { model: 'sora-2-pro', seconds: 8, size: '1792x1024' });
    const want = Math.round(0.3 * 8 * 1.666667 * 1.5 * QPU);
    expect(v).toMatchObject({ model: 'sora-2-pro', state: 'queued', seconds: 8, size: '1792x1024', quota: want });
    expect(v.id).toMatch(/^video_[0-9a-f]{32}$/);
    // The gateway id is its own, never the upstream's.
    expect([...sora.videos.keys()]).not.toContain(v.id);
    await h.poll();
    const { l } = await expectLedgerAgrees(payer, 10_000_000);
    expect(Number(l.user.quota)).toBe(10_000_000 - want);
    const consume = l.logs.find((r) => r.type === 2)!;
    expect(Number(consume.quota)).toBe(want);
    expect(consume.content).toContain(v.id);
    expect(consume.content).toContain('预扣');
    expect(JSON.parse(consume.other)).toMatchObject({ reserved: want, seconds: 8, group_ratio: 1.5 });
    // new-api's task row shape: the channel type as platform, text-to-video action, upstream id hidden.
    const row = await h.row(v.id);
    expect(row).toMatchObject({ platform: String(ChannelType.Sora), action: 'textGenerate', quota: want });
  });

  it("reserves the model's default seconds when none are asked, and settles a finished job at that price", async () => {
    const payer = await h.payer();
    const v = await submit(payer);
    expect(v.seconds).toBe(4);
    expect(v.quota).toBe(Math.round(0.1 * 4 * QPU));
    await finish(v.id);
    const done = await h.core.get(await h.principal(payer), v.id);
    expect(done).toMatchObject({ state: 'completed', progress: 100, seconds: 4, quota: 0.1 * 4 * QPU });
    await h.poll();
    const { l } = await expectLedgerAgrees(payer, 10_000_000);
    expect(Number(l.user.quota)).toBe(10_000_000 - 0.1 * 4 * QPU);
    const settled = l.logs.filter((r) => JSON.parse(r.other).message?.code === 'log.video_settled');
    expect(settled).toHaveLength(1);
    expect(JSON.parse(settled[0].other)).toMatchObject({ reserved: 200_000, charged: 200_000, refunded: 0 });
  });

  it('streams the finished file with Range, and answers 409 before it is done', async () => {
    const payer = await h.payer();
    const p = await h.principal(payer);
    const v = await submit(payer);
    await expect(h.core.content(p, v.id, 'video')).rejects.toMatchObject({ status: 409 });
    await finish(v.id);
    const upstreamId = (JSON.parse((await h.row(v.id)).properties) as { _switchyard: { upstreamId: string } })
      ._switchyard.upstreamId;
    const whole = sora.contentOf(upstreamId, 'video');
    const f = await h.core.content(p, v.id, 'video', 'bytes=0-99');
    expect(f.status).toBe(206);
    const chunks: Buffer[] = [];
    for await (const c of f.body) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks)).toEqual(whole.subarray(0, 100));
    expect(JSON.stringify(f.headers)).not.toContain(sora.url.replace('http://', ''));
  });

  it('gives back the difference when the upstream made fewer seconds than were reserved', async () => {
    const payer = await h.payer();
    const v = await submit(payer, { seconds: 12 });
    expect(v.quota).toBe(Math.round(0.1 * 12 * QPU));
    // What a poll reports for an upstream that stopped at 4 s (the same path the poller takes).
    await h.core.apply(await h.row(v.id), { state: 'completed', progress: 100, seconds: 4 });
    await h.core.apply(await h.row(v.id), { state: 'completed', progress: 100, seconds: 4 });
    await h.poll();
    const { l, net } = await expectLedgerAgrees(payer, 10_000_000);
    expect(net).toBe(200_000);
    expect(Number((await h.row(v.id)).quota)).toBe(200_000);
    const back = l.logs.filter((r) => r.type === 4);
    expect(back).toHaveLength(1);
    expect(Number(back[0].quota)).toBe(400_000);
    expect(JSON.parse(back[0].other)).toMatchObject({ reserved: 600_000, charged: 200_000, refunded: 400_000 });
  });

  it('charges the extra when the upstream made more seconds than were reserved, never below zero', async () => {
    const rich = await h.payer();
    const v = await submit(rich, { seconds: 4 });
    await h.core.apply(await h.row(v.id), { state: 'completed', progress: 100, seconds: 8 });
    await h.poll();
    const { l, net } = await expectLedgerAgrees(rich, 10_000_000);
    expect(net).toBe(400_000);
    expect(l.logs.map((r) => [r.type, Number(r.quota)])).toEqual([
      [2, 200_000],
      [2, 200_000],
    ]);
    // A wallet that holds only 50,000 more pays those and no more.
    const poor = await h.payer(250_000);
    const w = await submit(poor, { seconds: 4 });
    await h.core.apply(await h.row(w.id), { state: 'completed', progress: 100, seconds: 12 });
    await h.poll();
    const after = await expectLedgerAgrees(poor, 250_000);
    expect(Number(after.l.user.quota)).toBe(0);
    expect(after.net).toBe(250_000);
    expect(Number((await h.row(w.id)).quota)).toBe(250_000);
  });

  it('refunds a failed job exactly once while two pollers and two readers race', async () => {
    const payer = await h.payer(1_000_000, 800_000);
    const p = await h.principal(payer);
    const v = await submit(payer, { prompt: 'please FAIL this one', seconds: 8 });
    expect(v.quota).toBe(400_000);
    sora.advance(11 * STEP_MS);
    await h.due(v.id);
    const [, , a, b] = await Promise.all([h.poll(), h.poll(), h.core.get(p, v.id), h.core.get(p, v.id)]);
    await h.core.get(p, v.id);
    await h.poll();
    expect(a.state).toBe('failed');
    expect(b.state).toBe('failed');
    expect(a.error?.message).toContain('fail');
    const { l, net } = await expectLedgerAgrees(payer, 1_000_000);
    expect(net).toBe(0);
    expect(Number(l.user.quota)).toBe(1_000_000);
    expect(Number(l.token?.remain_quota)).toBe(800_000);
    const refunds = l.logs.filter((r) => r.type === 4);
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0].quota)).toBe(400_000);
    expect(refunds[0].content).toContain('退还');
  });

  it('fails and refunds a job stuck past TaskTimeoutMinutes, once, with the reason', async () => {
    await h.setOptions({ TaskTimeoutMinutes: '5' });
    try {
      const payer = await h.payer();
      const v = await submit(payer);
      // Six minutes ago, and the upstream still says queued.
      await h.deps.db
        .updateTable('tasks')
        .set({ submit_time: Math.floor(Date.now() / 1000) - 360 })
        .where('task_id', '=', v.id)
        .execute();
      await h.due(v.id);
      await Promise.all([h.poll(), h.poll()]);
      await h.due(v.id);
      await h.poll();
      const row = await h.row(v.id);
      expect(row.status).toBe('FAILURE');
      expect(row.fail_reason).toContain('5');
      const { l, net } = await expectLedgerAgrees(payer, 10_000_000);
      expect(net).toBe(0);
      expect(l.logs.filter((r) => r.type === 4)).toHaveLength(1);
    } finally {
      await h.setOptions({ TaskTimeoutMinutes: '120' });
    }
  });

  it('accepts at most 5 of 20 parallel submits on a token with room for 5, refusing the rest with 403', async () => {
    const one = 0.1 * 4 * QPU;
    const payer = await h.payer(100_000_000, 5 * one);
    const p = await h.principal(payer);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => h.core.submit(p, { model: 'sora-2', prompt: `cat ${i}` }, meta)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(5);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(RelayError);
      expect((r.reason as RelayError).status).toBe(403);
    }
    await h.poll();
    const { l } = await expectLedgerAgrees(payer, 100_000_000);
    expect(Number(l.token?.remain_quota)).toBe(0);
  });

  it('through the OpenAI door: 20 parallel creates on a token with room for 5 make 5 jobs, 15 answer 403', async () => {
    const one = 0.1 * 4 * QPU;
    const payer = await h.payer(100_000_000, 5 * one);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.call('POST', '/v1/videos', payer.key, { model: 'sora-2', prompt: `dog ${i}`, seconds: '4' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(15);
    for (const a of refused) {
      expect(a.status).toBe(403);
      expect(a.json.error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
    }
    await h.poll();
    const { l } = await expectLedgerAgrees(payer, 100_000_000);
    expect(l.logs.filter((r) => r.type === 2)).toHaveLength(5);
  });

  it('refunds a job paid from a subscription pool back into the pool, not the wallet', async () => {
    const plan = await h.deps.services.subscriptions.plans.create({
      from: 'new-api',
      fields: planFields.parse({
        title: 'Video plan',
        duration_unit: 'day',
        duration_value: 30,
        total_amount: 10 * QPU,
      }),
    });
    const payer = await h.payer(3_000_000);
    await h.deps.services.subscriptions.users.grant({ id: 1, role: Role.Root }, payer.userId, plan.id);
    const pool = () =>
      h.deps.db
        .selectFrom('user_subscriptions')
        .select('amount_used')
        .where('user_id', '=', payer.userId)
        .executeTakeFirstOrThrow();
    const v = await submit(payer, { prompt: 'FAIL in the pool', seconds: 8 });
    expect(Number((await pool()).amount_used)).toBe(0.1 * 8 * QPU);
    sora.advance(11 * STEP_MS);
    await h.due(v.id);
    await h.poll();
    expect((await h.row(v.id)).status).toBe('FAILURE');
    expect(Number((await pool()).amount_used)).toBe(0);
    const l = await h.ledger(payer);
    expect(Number(l.user.quota)).toBe(3_000_000);
    expect(Number(l.user.used_quota)).toBe(0);
    expect(l.logs.filter((r) => r.type === 4).map((r) => Number(r.quota))).toEqual([0.1 * 8 * QPU]);
  });

  it('deletes only a finished job; a deleted one answers 404 but stays in the task table for the log', async () => {
    const payer = await h.payer();
    const p = await h.principal(payer);
    const v = await submit(payer);
    await expect(h.core.remove(p, v.id)).rejects.toMatchObject({ status: 409 });
    await finish(v.id);
    expect((await h.core.get(p, v.id)).state).toBe('completed');
    await h.core.remove(p, v.id);
    await expect(h.core.get(p, v.id)).rejects.toMatchObject({ status: 404 });
    expect((await h.core.list(p, { limit: 10, order: 'desc' })).items).toHaveLength(0);
    expect((await h.row(v.id)).status).toBe('SUCCESS');
  });

  it("answers 404 for another user's job, as for an unknown id, on get, content, remove and remix", async () => {
    const owner = await h.payer();
    const other = await h.principal(await h.payer());
    const v = await submit(owner);
    for (const attempt of [
      () => h.core.get(other, v.id),
      () => h.core.content(other, v.id, 'video'),
      () => h.core.remove(other, v.id),
      () => h.core.remix(other, v.id, 'again', meta),
      () => h.core.get(other, 'video_00000000000000000000000000000000'),
    ])
      await expect(attempt()).rejects.toMatchObject({ status: 404 });
    expect((await h.core.list(other, { limit: 10, order: 'desc' })).items).toHaveLength(0);
    expect((await h.core.list(await h.principal(owner), { limit: 10, order: 'desc' })).items.map((i) => i.id)).toEqual([
      v.id,
    ]);
  });

  it('refuses what the model cannot make with a 400 saying why, before any money moves', async () => {
    const payer = await h.payer();
    await expect(submit(payer, { seconds: 7 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('4, 8, 12'),
    });
    await expect(submit(payer, { size: '1792x1024' })).rejects.toMatchObject({ status: 400 });
    await h.poll();
    const l = await h.ledger(payer);
    expect(Number(l.user.quota)).toBe(10_000_000);
    expect(l.logs).toHaveLength(0);
  });
});
