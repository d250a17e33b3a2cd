import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { expect } from 'vitest';
import type { Config } from '../../../../config.ts';
import type { AppDeps } from '../../../../context.ts';
import type { TaskRow } from '../../../../db/types.ts';
import { LogType } from '../../../../../shared/constants.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../../../../../test/app.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  setOptions,
  type ChannelFixture,
} from '../../../../../test/relay-fixtures.ts';
import { type RelayPrincipal, toRelayUser } from '../../../principal.ts';
import { relayRuntimeOf } from '../../../runtime.ts';
import { taskPollerOf, videoPollerOf } from '../../routes.ts';
import { videoCoreOf, type VideoCore } from '../service.ts';

const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };

/*
 * A listening gateway for the video tests (issue 40), shared by the core's and the doors' tests. No
 * upstream is started here: a test starts the fakes it needs (scripts/fake-upstream/video/*) and adds
 * their channels with `channel()`. The pollers are stopped so a test polls when it says (`poll()`).
 */

export interface VideoPayer {
  userId: number;
  tokenId: number;
  /** `sk-...`, as a client sends it. */
  key: string;
}

export interface VideoHarness {
  t: TestApp;
  deps: AppDeps;
  /** e.g. http://127.0.0.1:PORT (no /v1). */
  gateway: string;
  /** The runtime's video core (what every door calls), for tests that drive it without a door. */
  core: VideoCore;
  /** Adds a channel (type, key, baseUrl, models...); returns its id. */
  channel(c: ChannelFixture): Promise<number>;
  /** A user and a token: unlimited unless `tokenQuota` is given. */
  payer(quota?: number, tokenQuota?: number, o?: { group?: string; modelLimits?: string[] }): Promise<VideoPayer>;
  /** The principal a door would build for this payer's key (no IP allow-list or rate limit: that is the door's part). */
  principal(payer: VideoPayer): Promise<RelayPrincipal>;
  /** One run of every poller (video and Midjourney/Suno), then the queued log rows are written. */
  poll(): Promise<void>;
  /** Options through the real service, e.g. `{ ModelPrice: JSON.stringify({ 'sora-2': 0.1 }) }`. */
  setOptions(values: Record<string, string>): Promise<void>;
  /** The stored row of a gateway id. */
  row(id: string): Promise<TaskRow>;
  /** Makes a job due for the poller now and its row stale for a reader (instead of waiting out the backoff). */
  due(id: string): Promise<void>;
  /** User, token and non-error log rows of a payer (test/relay-fixtures.ts ledger). */
  ledger(payer: VideoPayer): ReturnType<typeof ledger>;
  /** The payer's user quota now. */
  quota(payer: VideoPayer): Promise<number>;
  /**
   * What the log rows alone say the payer was charged (consumed minus refunded), checked against
   * the wallet that started at `initial` and the token's used quota.
   */
  charged(payer: VideoPayer, initial: number): Promise<number>;
  /** The official OpenAI SDK with the payer's key on the gateway's /v1 (no retries: a test sees each answer). */
  openai(payer: VideoPayer): OpenAI;
  call(
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
    headers?: Record<string, string>,
    // Tests read protocol answers of many shapes; asserting on them is the type check.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; json: any; headers: Headers }>;
  close(): Promise<void>;
}

/** A payer's net charge by log rows: consumption rows add, refund rows (LogType.System) take back. */
export const netCharge = (logs: readonly { type: number; quota: unknown }[]) =>
  logs.reduce((sum, r) => sum + (r.type === LogType.System ? -Number(r.quota) : Number(r.quota)), 0);

/** Options every video test starts from: 500,000 quota per USD, the default group at ratio 1. */
export const VIDEO_QUOTA_PER_UNIT = 500_000;

export async function startVideoHarness(
  config: Partial<Config> = {},
  opts: TestAppOptions = {},
): Promise<VideoHarness> {
  const t = await createTestApp(config, opts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const gateway = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Deterministic tests: the pollers run when a test asks, not on a timer.
  await taskPollerOf(t.deps)!.stop();
  await videoPollerOf(t.deps)!.stop();
  const rt = relayRuntimeOf(t.deps)!;
  await setOptions(t.deps, { ServerAddress: 'https://gw.example.com' });
  const row = (id: string) =>
    t.deps.db.selectFrom('tasks').selectAll().where('task_id', '=', id).executeTakeFirstOrThrow();
  return {
    t,
    deps: t.deps,
    gateway,
    core: videoCoreOf(rt),
    channel: (c) => insertChannel(t.deps, c),
    async payer(quota = 10_000_000, tokenQuota, o = {}) {
      const u = await insertUser(t.deps, { quota, ...(o.group ? { group: o.group } : {}) });
      const tok = await insertToken(t.deps, u.id, {
        ...(tokenQuota === undefined ? { unlimited: true } : { remainQuota: tokenQuota }),
        ...(o.modelLimits ? { modelLimits: o.modelLimits } : {}),
      });
      return { userId: u.id, tokenId: tok.id, key: tok.key };
    },
    async principal(payer) {
      const u = await t.deps.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', payer.userId)
        .executeTakeFirstOrThrow();
      const tok = await t.deps.db
        .selectFrom('tokens')
        .selectAll()
        .where('id', '=', payer.tokenId)
        .executeTakeFirstOrThrow();
      return {
        user: toRelayUser(u),
        token: {
          id: Number(tok.id),
          name: tok.name,
          cacheKey: tok.key,
          unlimited: tok.unlimited_quota === 1,
          modelLimits: tok.model_limits_enabled === 1 ? new Set(tok.model_limits.split(',').filter(Boolean)) : null,
          rateLimit: null,
        },
        group: tok.group || u.group,
        pinnedChannelId: null,
      };
    },
    async poll() {
      await videoPollerOf(t.deps)!.pollOnce();
      await taskPollerOf(t.deps)!.pollOnce();
      await rt.drain();
    },
    setOptions: (values) => setOptions(t.deps, values),
    row,
    async due(id) {
      await t.deps.db
        .updateTable('tasks')
        .set({ next_poll_at: 0, lease_until: 0, updated_at: 0 })
        .where('task_id', '=', id)
        .execute();
    },
    ledger: (payer) => ledger(t.deps, payer.userId, payer.tokenId),
    async quota(payer) {
      return Number((await ledger(t.deps, payer.userId, payer.tokenId)).user.quota);
    },
    async charged(payer, initial) {
      const l = await ledger(t.deps, payer.userId, payer.tokenId);
      const net = netCharge(l.logs);
      expect(Number(l.user.quota) + net).toBe(initial);
      expect(Number(l.token?.used_quota)).toBe(net);
      return net;
    },
    // In English: the relay answers Chinese by default (issue 45) and the video tests read its English wording.
    openai: (payer) =>
      new OpenAI({ apiKey: payer.key, baseURL: `${gateway}/v1`, maxRetries: 0, defaultHeaders: ENGLISH }),
    async call(method, path, key, body, headers = {}) {
      const res = await fetch(`${gateway}${path}`, {
        method,
        headers: {
          ...ENGLISH,
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
        // Non-JSON answers (video bytes) are returned as text.
      }
      return { status: res.status, json, headers: res.headers };
    },
    async close() {
      await t.close();
    },
  };
}
