import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../shared/constants.ts';
import { FAKE_BEDROCK_SECRET, startFakeBedrock } from '../../../scripts/fake-upstream/bedrock.ts';
import { startFakeGemini } from '../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream, RecordedRequest } from '../../../scripts/fake-upstream/server.ts';
import {
  type ChannelFixture,
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { loginAs } from '../../../test/users.ts';

/*
 * relay.md §4: the channel test "runs through the same adapter path" as the relay. Each
 * channel here is tested through GET /api/channel/test/:id and, where it matters, relayed
 * through /v1/chat/completions too, against the fake upstreams on loopback: the upstream
 * must see the same URL, auth and model from both.
 */

let h: RelayHarness;
let bedrock: FakeUpstream;
let gemini: FakeUpstream;
let admin: Record<string, string>;
let relayKey: string;

const HAIKU = 'claude-3-5-haiku-20241022';
const BEDROCK_KEY = `AKIAFAKE|${FAKE_BEDROCK_SECRET}|us-east-1`;

beforeAll(async () => {
  h = await startRelayHarness();
  [bedrock, gemini] = await Promise.all([startFakeBedrock(), startFakeGemini()]);
  admin = (await loginAs(h.t, Role.Admin)).headers;
  const user = await insertUser(h.deps, { quota: 100_000_000 });
  relayKey = (await insertToken(h.deps, user.id, { unlimited: true })).key;
  const priced = ['zhipu-t', 'volc-t', 'baidu-t', 'pplx-t', HAIKU, 'nova-t', 'alias-t'];
  await setOptions(h.deps, { ModelRatio: JSON.stringify(Object.fromEntries(priced.map((m) => [m, 1]))) });
});
afterAll(async () => {
  await h.close();
  await Promise.all([bedrock.close(), gemini.close()]);
});

const channel = (c: Partial<ChannelFixture> & { models: string[] }) =>
  insertChannel(h.deps, { baseUrl: h.fake.url, ...c });
const row = (id: number) => h.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The admin's test of one channel (REST, as the console calls it) and the upstream request it made. */
async function testChannel(id: number, fake = h.fake, model?: string) {
  const before = fake.requests.length;
  const res = await h.t.app.inject({
    method: 'GET',
    url: `/api/channel/test/${id}${model ? `?model=${encodeURIComponent(model)}` : ''}`,
    headers: admin,
  });
  const body = res.json<{ success: boolean; message: string; time: number }>();
  const sent: RecordedRequest[] = fake.requests.slice(before);
  return { body, sent };
}

/** The same model relayed by the gateway for a client; the upstream request it made. */
async function relayChat(model: string, fake = h.fake): Promise<RecordedRequest[]> {
  const before = fake.requests.length;
  await h.client(relayKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  return fake.requests.slice(before);
}

describe('the channel test uses the relay adapters', () => {
  it.each([
    [26, 'zhipu-t', '/api/paas/v4/chat/completions'],
    [45, 'volc-t', '/api/v3/chat/completions'],
    [46, 'baidu-t', '/v2/chat/completions'],
    [27, 'pplx-t', '/chat/completions'],
  ])('type %i is tested at the URL the relay sends to, and passes', async (type, model, path) => {
    const id = await channel({ type, key: `sk-${model}`, models: [model] });
    const t = await testChannel(id);
    expect(t.body).toMatchObject({ success: true, message: '' });
    expect(typeof t.body.time).toBe('number');
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ method: 'POST', path });
    expect(t.sent[0].headers.authorization).toBe(`Bearer sk-${model}`);
    expect(t.sent[0].body).toMatchObject({ model, max_tokens: 1, stream: false });

    const relayed = await relayChat(model);
    expect(relayed.map((r) => r.path)).toEqual([path]);
    expect(relayed[0].headers.authorization).toBe(t.sent[0].headers.authorization);
    expect((await row(id)).response_time).toBeGreaterThanOrEqual(0);
  });

  it('tests an AWS Bedrock channel (type 33) SigV4-signed at the relay URL, Claude and Converse models alike', async () => {
    const id = await channel({
      type: 33,
      key: BEDROCK_KEY,
      baseUrl: bedrock.url,
      models: [HAIKU, 'nova-t'],
      modelMapping: { 'nova-t': 'amazon.nova-lite-v1:0' },
    });
    const t = await testChannel(id, bedrock);
    expect(t.body).toMatchObject({ success: true, message: '' });
    const invoke = `/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/invoke`;
    expect(t.sent.map((r) => r.path)).toEqual([invoke]);
    // The fake recomputes the signature with the secret; a wrong one is a 403 (below).
    expect(String(t.sent[0].headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKE\//);
    expect(t.sent[0].body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 1 });
    expect((await relayChat(HAIKU, bedrock)).map((r) => r.path)).toEqual([invoke]);

    const converse = await testChannel(id, bedrock, 'nova-t');
    expect(converse.body).toMatchObject({ success: true, message: '' });
    const path = `/model/${encodeURIComponent('amazon.nova-lite-v1:0')}/converse`;
    expect(converse.sent.map((r) => r.path)).toEqual([path]);
    expect((await relayChat('nova-t', bedrock)).map((r) => r.path)).toEqual([path]);
  });

  it('fails a Bedrock channel whose secret does not sign, with the upstream message and no key in it', async () => {
    const id = await channel({
      type: 33,
      key: 'AKIAFAKE|not-the-secret|us-east-1',
      baseUrl: bedrock.url,
      models: [HAIKU],
    });
    const t = await testChannel(id, bedrock);
    expect(t.body.success).toBe(false);
    expect(t.body.message).toContain('上游返回 HTTP 403');
    expect(t.body.message).toContain('The request signature we calculated does not match');
    expect(t.body.message).not.toContain('not-the-secret');
    expect(typeof t.body.time).toBe('number');

    const notAws = await channel({ type: 33, key: 'sk-not-aws', baseUrl: bedrock.url, models: [HAIKU] });
    const n = await testChannel(notAws, bedrock);
    expect(n.body).toMatchObject({ success: false, message: expect.stringContaining('AccessKeyId|SecretAccessKey') });
    expect(n.sent).toHaveLength(0);
  });

  it('tests the upstream model of the channel model_mapping, with its param_override and system prompt', async () => {
    const id = await channel({
      models: ['alias-t'],
      modelMapping: { 'alias-t': 'upstream-real-t' },
      paramOverride: { temperature: 0.25 },
      systemPrompt: 'Be brief.',
    });
    const t = await testChannel(id);
    expect(t.body.success).toBe(true);
    expect(t.sent[0].path).toBe('/v1/chat/completions');
    expect(t.sent[0].body).toMatchObject({
      model: 'upstream-real-t',
      temperature: 0.25,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    const relayed = await relayChat('alias-t');
    expect(relayed[0].body).toMatchObject({ model: 'upstream-real-t', temperature: 0.25 });
  });

  it("applies Azure's deployment naming and Gemini's version settings as the relay does", async () => {
    const az = await channel({ type: 3, key: 'az-key', models: ['gpt-4.1-t'] });
    const a = await testChannel(az);
    expect(a.body.success).toBe(true);
    expect(a.sent[0].path).toBe('/openai/deployments/gpt-41-t/chat/completions?api-version=2024-10-21');
    expect(a.sent[0].headers['api-key']).toBe('az-key');
    expect(a.sent[0].headers.authorization).toBeUndefined();

    await setOptions(h.deps, { 'gemini.version_settings': JSON.stringify({ default: 'v1beta', 'gem-t': 'v1' }) });
    const gem = await channel({ type: 24, key: 'AIza-test', baseUrl: gemini.url, models: ['gem-t'] });
    const g = await testChannel(gem, gemini);
    expect(g.body).toMatchObject({ success: true, message: '' });
    expect(g.sent.map((r) => r.path)).toEqual(['/v1/models/gem-t:generateContent']);
    expect(g.sent[0].headers['x-goog-api-key']).toBe('AIza-test');
  });

  it('sends rerank models a rerank request and embedding models an embeddings request', async () => {
    const jina = await channel({ type: 38, models: ['jina-reranker-v2-t'] });
    const j = await testChannel(jina);
    expect(j.body.success).toBe(true);
    expect(j.sent[0].path).toBe('/v1/rerank');
    expect(j.sent[0].body).toMatchObject({ model: 'jina-reranker-v2-t', query: 'hi', documents: ['hi'] });

    const cohere = await channel({ type: 34, models: ['rerank-english-v3.0'] });
    expect((await testChannel(cohere)).sent[0].path).toBe('/v1/rerank');

    // `bge-` reads as an embedding model, but a reranker is a reranker.
    const bge = await channel({ models: ['bge-reranker-v2-m3', 'bge-m3'] });
    expect((await testChannel(bge)).sent[0].path).toBe('/v1/rerank');
    const emb = await testChannel(bge, h.fake, 'bge-m3');
    expect(emb.body.success).toBe(true);
    expect(emb.sent[0].path).toBe('/v1/embeddings');
  });
});

describe('a failing channel test', () => {
  it('reports an upstream 401 with its message; test-all auto-disables it only when the options say so', async () => {
    const id = await channel({ key: 'sk-dead+fail-401-invalid-key', models: ['dead-t'] });
    const single = await testChannel(id);
    expect(single.body.success).toBe(false);
    expect(single.body.message).toMatch(/^上游返回 HTTP 401：Incorrect API key provided/);
    expect(single.body.message).not.toContain('sk-dead');
    expect(typeof single.body.time).toBe('number');
    // A single test records, never disables.
    expect((await row(id)).status).toBe(ChannelStatus.Enabled);

    const channels = h.deps.services.channels;
    await setOptions(h.deps, { AutomaticDisableChannelEnabled: 'false' });
    await channels.testAll();
    const kept = await row(id);
    expect(kept.status).toBe(ChannelStatus.Enabled);
    expect(kept.test_time).toBeGreaterThan(0);

    await setOptions(h.deps, { AutomaticDisableChannelEnabled: 'true' });
    await channels.testAll();
    const disabled = await row(id);
    expect(disabled.status).toBe(ChannelStatus.AutoDisabled);
    expect(JSON.parse(disabled.other_info)).toMatchObject({
      status_reason: expect.stringContaining('Incorrect API key provided'),
    });
    const abilities = await h.deps.db.selectFrom('abilities').selectAll().where('channel_id', '=', id).execute();
    expect(abilities.every((a) => a.enabled === 0)).toBe(true);
    await setOptions(h.deps, { AutomaticDisableChannelEnabled: 'false' });
  });

  it('keeps saying that task channels cannot be tested', async () => {
    const mj = await channel({ type: 2, models: ['mj_imagine'] });
    const res = await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${mj}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, message: '该渠道类型暂不支持测试' });
  });
});
