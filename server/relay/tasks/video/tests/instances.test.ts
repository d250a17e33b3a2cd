import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { createKeptDatabase } from '../../../../../test/app.ts';
import { relayRuntimeOf } from '../../../runtime.ts';
import { netCharge, startVideoHarness, type VideoHarness } from './harness.ts';

/*
 * Two gateway instances on one database (issue 40): both poll the same unfinished video jobs at
 * the same moment. The lease lets one of them ask the upstream; the conditional status change lets
 * one of them settle. A finished job is settled once, a failed one refunded once, and the balances
 * agree with the log rows.
 */

const STEP_MS = 1000;
let kept: Awaited<ReturnType<typeof createKeptDatabase>>;
let a: VideoHarness;
let b: VideoHarness;
let sora: FakeSora;

beforeAll(async () => {
  kept = await createKeptDatabase();
  a = await startVideoHarness({}, kept.opts);
  b = await startVideoHarness({}, kept.opts);
  sora = await startFakeSora({ key: 'sora-key', stepMs: STEP_MS });
  await a.channel({ type: ChannelType.Sora, key: 'sora-key', baseUrl: sora.url, models: ['sora-2'] });
  await a.setOptions({ ModelPrice: JSON.stringify({ 'sora-2': 0.1 }) });
  // The second instance learns of the channel and the price as it would from the shared database.
  await b.deps.services.options.load();
  await relayRuntimeOf(b.deps)!.routing.reload();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await sora?.close();
  await kept?.remove();
});

describe('two instances polling one database', () => {
  it('settle a finished job once and refund a failed one once, asking the upstream once per round', async () => {
    const payer = await a.payer();
    const p = await a.principal(payer);
    const meta = { ip: '127.0.0.1', requestId: 'r', door: 'openai' as const };
    const ok = await a.core.submit(p, { model: 'sora-2', prompt: 'a lighthouse', seconds: 8 }, meta);
    const bad = await a.core.submit(p, { model: 'sora-2', prompt: 'FAIL at the end', seconds: 8 }, meta);
    sora.advance(11 * STEP_MS);
    await a.due(ok.id);
    await a.due(bad.id);
    const before = sora.requests.filter((r) => r.method === 'GET').length;
    await Promise.all([a.poll(), b.poll(), a.poll(), b.poll()]);
    // One claim per job per round: two polls of the upstream, not four or eight.
    expect(sora.requests.filter((r) => r.method === 'GET').length - before).toBe(2);
    await a.due(ok.id);
    await a.due(bad.id);
    await Promise.all([a.poll(), b.poll()]);

    expect((await a.row(ok.id)).status).toBe('SUCCESS');
    expect((await a.row(bad.id)).status).toBe('FAILURE');
    const l = await a.ledger(payer);
    const codes = l.logs.map((r) => (JSON.parse(r.other) as { message?: { code: string } }).message?.code);
    expect(codes.filter((c) => c === 'log.video_settled')).toHaveLength(1);
    expect(codes.filter((c) => c === 'log.video_refund')).toHaveLength(1);
    const net = netCharge(l.logs);
    expect(net).toBe(0.1 * 8 * 500_000);
    expect(Number(l.user.quota) + net).toBe(10_000_000);
  });
});
