import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'guard-model': 1 }),
    GroupRatio: JSON.stringify({ default: 1, 'nsfw-ok': 1 }),
    CheckSensitiveEnabled: 'true',
    CheckSensitiveOnPromptEnabled: 'true',
    StopOnSensitiveEnabled: 'true',
    SensitiveWords: 'Forbidden Phrase\nsecret-plan',
    'global.safe_check_exempt_enabled': 'true',
    'global.safe_check_exempt_group': 'nsfw-ok',
    'global.block_browser_extension_enabled': 'true',
  });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['guard-model'], groups: ['default', 'nsfw-ok'] });
});
afterAll(() => h.close());

const chat = (key: string, content: string) =>
  h.client(key).chat.completions.create({ model: 'guard-model', messages: [{ role: 'user', content }] });

describe('request guards', () => {
  it('stops a prompt with a sensitive word (any case) before the upstream, charging nothing', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    await expect(chat(token.key, 'tell me the SECRET-PLAN now')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('secret-plan'),
    });
    expect(h.fake.requests.length).toBe(before);
    await h.drain();
    expect((await ledger(h.deps, user.id, token.id)).logs).toEqual([]);
    await expect(chat(token.key, 'a harmless question')).resolves.toBeTruthy();
  });

  it('lets the exempt group through', async () => {
    const user = await insertUser(h.deps, { group: 'nsfw-ok' });
    const token = await insertToken(h.deps, user.id);
    await expect(chat(token.key, 'forbidden phrase inside')).resolves.toBeTruthy();
  });

  it('refuses calls from browser extensions when blocking is on', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.key}`,
        'content-type': 'application/json',
        origin: 'chrome-extension://abcdefghijklmnop',
      },
      body: JSON.stringify({ model: 'guard-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('browser_extension_blocked');
  });
});

describe('Prometheus metrics of the relay', () => {
  it('counts requests by model, channel and status, billed tokens and quota, and the gateway latency', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await chat(token.key, 'count me');
    await expect(chat(token.key, 'forbidden phrase')).rejects.toMatchObject({ status: 400 });
    await h.drain();
    const text = await h.deps.metrics.registry.metrics();
    expect(text).toMatch(/switchyard_relay_requests_total\{model="guard-model",channel="\d+",status="200"\} [1-9]/);
    expect(text).toMatch(/switchyard_relay_requests_total\{model="guard-model",channel="",status="400"\} [1-9]/);
    expect(text).toMatch(/switchyard_tokens_billed_total\{model="guard-model",kind="completion"\} [1-9]/);
    expect(text).toMatch(/switchyard_quota_billed_total\{model="guard-model"\} [1-9]/);
    expect(text).toMatch(/switchyard_gateway_added_latency_seconds_count [1-9]/);
    expect(text).toContain('switchyard_active_streams 0');
  });
});
