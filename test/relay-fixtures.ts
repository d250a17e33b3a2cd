import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { Config } from '../server/config.ts';
import type { AppDeps } from '../server/context.ts';
import { relayRuntimeOf } from '../server/relay/runtime.ts';
import { LogType } from '../shared/constants.ts';
import { createChannelInput } from '../shared/schemas/channels.ts';
import { type FakeOptions, type FakeUpstream, startFakeOpenAI } from '../scripts/fake-upstream/server.ts';
import { createTestApp, type TestApp } from './app.ts';

/*
 * Fixtures for relay tests: channels through the real channels service; users and
 * tokens as rows (any quota, status, expiry or limit a test needs, which the
 * console rules would refuse to create directly).
 */

export async function insertUser(
  deps: AppDeps,
  o: { quota?: number; group?: string; role?: number; status?: number; setting?: object; username?: string } = {},
) {
  const username = o.username ?? `u${randomBytes(4).toString('hex')}`;
  const r = await deps.db
    .insertInto('users')
    .values({
      username,
      password: 'x',
      quota: o.quota ?? 1_000_000,
      group: o.group ?? 'default',
      role: o.role ?? 1,
      status: o.status ?? 1,
      setting: o.setting ? JSON.stringify(o.setting) : '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  deps.bus.publish('users');
  return { id: Number(r.id), username };
}

export interface ChannelFixture {
  name?: string;
  type?: number;
  key?: string;
  baseUrl: string;
  models: string[];
  groups?: string[];
  priority?: number;
  weight?: number;
  autoBan?: boolean;
  modelMapping?: Record<string, string>;
  statusCodeMapping?: Record<string, string>;
  paramOverride?: object;
  systemPrompt?: string;
  /** The channel's settings JSON (e.g. multi_key_mode). */
  setting?: object;
  /** The type's own field (Xunfei Spark's API version, Vertex AI's region, Cloudflare's account id...). */
  other?: string;
}

/** Creates a channel through the real channels service (abilities kept in sync, bus published). */
export async function insertChannel(deps: AppDeps, c: ChannelFixture): Promise<number> {
  const [id] = await deps.services.channels.create(
    createChannelInput.parse({
      name: c.name ?? 'ch',
      type: c.type ?? 1,
      key: c.key ?? 'sk-upstream-key',
      mode: 'multi_to_single',
      base_url: c.baseUrl,
      models: c.models.join(','),
      group: (c.groups ?? ['default']).join(','),
      priority: c.priority ?? 0,
      weight: c.weight ?? 0,
      auto_ban: c.autoBan === false ? 0 : 1,
      model_mapping: c.modelMapping ? JSON.stringify(c.modelMapping) : undefined,
      status_code_mapping: c.statusCodeMapping ? JSON.stringify(c.statusCodeMapping) : undefined,
      param_override: c.paramOverride ? JSON.stringify(c.paramOverride) : undefined,
      system_prompt: c.systemPrompt,
      setting: c.setting ? JSON.stringify(c.setting) : undefined,
      other: c.other,
    }),
  );
  // The bus already asked for a rebuild; waiting for one makes the next request deterministic.
  await relayRuntimeOf(deps)!.routing.reload();
  return id;
}

export async function insertToken(
  deps: AppDeps,
  userId: number,
  o: Partial<{
    name: string;
    status: number;
    remainQuota: number;
    unlimited: boolean;
    expiredTime: number;
    modelLimits: string[];
    allowIps: string;
    group: string;
    rateLimit: { period: number; count: number; success: number };
  }> = {},
) {
  const key = randomBytes(24).toString('hex');
  const r = await deps.db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key,
      name: o.name ?? 'test-token',
      status: o.status ?? 1,
      remain_quota: o.remainQuota ?? 500_000,
      unlimited_quota: o.unlimited ? 1 : 0,
      expired_time: o.expiredTime ?? -1,
      model_limits_enabled: o.modelLimits ? 1 : 0,
      model_limits: (o.modelLimits ?? []).join(','),
      allow_ips: o.allowIps ?? '',
      group: o.group ?? '',
      rate_limit_enabled: o.rateLimit ? 1 : 0,
      rate_limit_period: o.rateLimit?.period ?? 60,
      rate_limit_count: o.rateLimit?.count ?? 1000,
      rate_limit_success: o.rateLimit?.success ?? 10,
      created_time: Math.floor(Date.now() / 1000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  deps.bus.publish('tokens');
  return { id: Number(r.id), key: `sk-${key}` };
}

export interface RelayHarness {
  t: TestApp;
  deps: AppDeps;
  fake: FakeUpstream;
  baseURL: string;
  client(key: string): OpenAI;
  /** Waits for settlements and flushes the log queue. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** A listening gateway (127.0.0.1:0) plus a fake OpenAI upstream on loopback; `config` as the environment would set it. */
export async function startRelayHarness(
  fakeOpts: FakeOptions = {},
  config: Partial<Config> = {},
): Promise<RelayHarness> {
  const t = await createTestApp(config);
  const fake = await startFakeOpenAI(fakeOpts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}/v1`;
  return {
    t,
    deps: t.deps,
    fake,
    baseURL,
    // In English: the relay answers Chinese by default (issue 45) and these tests read its English wording;
    // the language choice itself is server/relay/tests/relay-error-language.test.ts.
    client: (key) =>
      new OpenAI({ apiKey: key, baseURL, maxRetries: 0, defaultHeaders: { 'accept-language': 'en-US,en;q=0.9' } }),
    drain: () => relayRuntimeOf(t.deps)!.drain(),
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

/** Sets options through the real service (validated, cached in memory). */
export async function setOptions(deps: AppDeps, values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) await deps.services.options.update(k, v);
}

/**
 * Every place a relayed request leaves money: the user, the token, the channels and the log rows
 * (error rows, type 6, bill nothing and are left out; relay-error-logs.test.ts reads them).
 */
export async function ledger(deps: AppDeps, userId: number, tokenId: number) {
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const token = await deps.db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirst();
  const logs = await deps.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '!=', LogType.Error)
    .orderBy('id')
    .execute();
  const reservations = await deps.db.selectFrom('quota_reservations').selectAll().execute();
  const logQuota = logs.reduce((s, l) => s + Number(l.quota), 0);
  return { user, token, logs, logQuota, reservations };
}
