import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { freePort, startGatewayProcess } from '../../../../../test/gateway-process.ts';
import { netCharge, startVideoHarness, type VideoPayer } from './harness.ts';

/*
 * Restart safety of video jobs (issue 40): jobs submitted, the real gateway process polling them is
 * SIGKILLed mid-job, the upstream finishes them while no gateway runs, and a new process on the same
 * SQLite file resumes polling from the table and settles each job exactly once: the finished one at
 * its price, the failed one refunded in full, balances equal to the log rows, no reservation left.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The fake's jobs move only when the test says so.
const STEP_MS = 3_600_000;
const QPU = 500_000;

let dataDir: string;
let sora: FakeSora;
let child: ChildProcess | undefined;
let port: number;
let payer: VideoPayer;
const ids: { ok: string; bad: string } = { ok: '', bad: '' };
const upstream: { ok: string; bad: string } = { ok: '', bad: '' };

const opts = () => ({ dataDir, sqlDsn: path.join(dataDir, 'switchyard.db') });
const gets = (id: string) => sora.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/videos/${id}`)).length;

async function until(what: () => boolean | Promise<boolean>, ms: number, label: string) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await what()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${label}`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-video-restart-'));
  sora = await startFakeSora({ key: 'sora-key', stepMs: STEP_MS });
  port = await freePort();
  // Seed and submit through the real core, then close the file before the real process opens it.
  const h = await startVideoHarness({}, opts());
  await h.channel({ type: ChannelType.Sora, key: 'sora-key', baseUrl: sora.url, models: ['sora-2'] });
  await h.setOptions({ ModelPrice: JSON.stringify({ 'sora-2': 0.1 }) });
  payer = await h.payer(10_000_000, 5_000_000);
  const p = await h.principal(payer);
  const meta = { ip: '127.0.0.1', requestId: 'r', door: 'openai' as const };
  ids.ok = (await h.core.submit(p, { model: 'sora-2', prompt: 'a harbour at dawn', seconds: 8 }, meta)).id;
  ids.bad = (await h.core.submit(p, { model: 'sora-2', prompt: 'FAIL please', seconds: 12 }, meta)).id;
  for (const k of ['ok', 'bad'] as const)
    upstream[k] = (
      JSON.parse((await h.row(ids[k])).properties) as { _switchyard: { upstreamId: string } }
    )._switchyard.upstreamId;
  await h.close();
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await sora?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL mid-job', () => {
  it('resumes polling after a restart and settles each job exactly once', async () => {
    const env = { TASK_POLL_INTERVAL_MS: '300' };
    child = (await startGatewayProcess({ dataDir, port, env })).proc;
    // The first process polls both jobs (still queued upstream), then dies without a word.
    await until(() => gets(upstream.ok) > 0 && gets(upstream.bad) > 0, 20_000, 'the first process to poll');
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    // The upstream finishes both while no gateway runs.
    sora.advance(11 * STEP_MS);
    child = (await startGatewayProcess({ dataDir, port, env })).proc;
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(dataDir, 'switchyard.db'), { readonly: true });
    const status = (id: string) =>
      (db.prepare('select status from tasks where task_id = ?').get(id) as { status: string }).status;
    try {
      await until(
        () => status(ids.ok) === 'SUCCESS' && status(ids.bad) === 'FAILURE',
        30_000,
        'the second process to settle',
      );
    } finally {
      db.close();
    }
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));

    const h = await startVideoHarness({}, opts());
    try {
      const l = await h.ledger(payer);
      const codes = l.logs.map((r) => (JSON.parse(r.other) as { message?: { code: string } }).message?.code);
      expect(codes.filter((c) => c === 'log.video_reserved')).toHaveLength(2);
      expect(codes.filter((c) => c === 'log.video_settled')).toHaveLength(1);
      expect(codes.filter((c) => c === 'log.video_refund')).toHaveLength(1);
      const net = netCharge(l.logs);
      expect(net).toBe(0.1 * 8 * QPU);
      expect(Number(l.user.quota)).toBe(10_000_000 - net);
      expect(Number(l.token?.remain_quota)).toBe(5_000_000 - net);
      expect(Number(l.token?.used_quota)).toBe(net);
      expect(l.reservations).toHaveLength(0);
    } finally {
      await h.close();
    }
  }, 90_000);
});
