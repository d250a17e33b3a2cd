import type { AddressInfo } from 'node:net';
import { type FakeMidjourney, startFakeMidjourney } from '../../../../scripts/fake-upstream/midjourney.ts';
import { type FakeSuno, startFakeSuno } from '../../../../scripts/fake-upstream/suno.ts';
import { createTestApp, type TestApp } from '../../../../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../../runtime.ts';
import { taskPollerOf } from '../routes.ts';

export const MJ_MODELS = [
  'mj_imagine',
  'mj_upscale',
  'mj_variation',
  'mj_describe',
  'mj_blend',
  'mj_modal',
  'mj_uploads',
];
export const STEP_MS = 1000;
/** Moves a fake upstream past a whole timeline (NOT_START .. SUCCESS). */
export const WHOLE_TIMELINE_MS = 20 * STEP_MS;

export interface TaskHarness {
  t: TestApp;
  gateway: string;
  mj: FakeMidjourney;
  suno: FakeSuno;
  mjChannel: number;
  sunoChannel: number;
  /** Makes every task due (as if its backoff had passed), polls once and waits for the queued log rows. */
  poll(): Promise<void>;
  /** A user and a token (unlimited unless `tokenQuota` is given). */
  payer(quota?: number, tokenQuota?: number): Promise<{ userId: number; tokenId: number; key: string }>;
  call(
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
    headers?: Record<string, string>,
    // Tests read protocol answers of many shapes; asserting on them is the type check.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

/** A listening gateway with a Midjourney-proxy channel (type 2) and a Suno channel (type 36) on fakes. */
export async function startTaskHarness(): Promise<TaskHarness> {
  const t = await createTestApp();
  const mj = await startFakeMidjourney({ stepMs: STEP_MS });
  const suno = await startFakeSuno({ stepMs: STEP_MS });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const gateway = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Deterministic tests: the poller runs when a test asks, not on a timer.
  await taskPollerOf(t.deps)!.stop();
  await setOptions(t.deps, {
    ModelPrice: JSON.stringify({
      mj_imagine: 0.1,
      mj_upscale: 0.05,
      mj_variation: 0.1,
      suno_music: 0.1,
      suno_lyrics: 0.01,
    }),
    ServerAddress: 'https://gw.example.com',
  });
  const mjChannel = await insertChannel(t.deps, {
    type: 2,
    key: 'mj-upstream-secret',
    baseUrl: mj.url,
    models: MJ_MODELS,
  });
  const sunoChannel = await insertChannel(t.deps, {
    type: 36,
    key: 'suno-upstream-key',
    baseUrl: suno.url,
    models: ['suno_music', 'suno_lyrics'],
  });
  return {
    t,
    gateway,
    mj,
    suno,
    mjChannel,
    sunoChannel,
    async poll() {
      // The clock jumps past each task's backoff; leases are left alone, so racing polls still share them.
      await t.deps.db.updateTable('midjourneys').set({ next_poll_at: 0 }).execute();
      await t.deps.db.updateTable('tasks').set({ next_poll_at: 0 }).execute();
      await taskPollerOf(t.deps)!.pollOnce();
      await relayRuntimeOf(t.deps)!.drain();
    },
    async payer(quota = 10_000_000, tokenQuota?: number) {
      const u = await insertUser(t.deps, { quota });
      const tok = await insertToken(
        t.deps,
        u.id,
        tokenQuota === undefined ? { unlimited: true } : { remainQuota: tokenQuota },
      );
      return { userId: u.id, tokenId: tok.id, key: tok.key };
    },
    async call(method, path, key, body, headers = {}) {
      const res = await fetch(`${gateway}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // Non-JSON answers (images) are returned as text.
      }
      return { status: res.status, json };
    },
    async close() {
      await t.close();
      await mj.close();
      await suno.close();
    },
  };
}

export async function userRow(t: TestApp, id: number) {
  return t.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** $0.1 at 500,000 quota per USD, group ratio 1. */
export const IMAGINE_QUOTA = 50_000;
