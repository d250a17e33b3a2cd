import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../../runtime.ts';
import { payer } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let azureId: number;
/** The gateway runs with AZURE_DEFAULT_API_VERSION set to this (server/config.ts). */
const CONFIGURED_VERSION = '2025-04-01-preview';

beforeAll(async () => {
  h = await startRelayHarness({}, { azureDefaultApiVersion: CONFIGURED_VERSION });
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'gpt-4.1': 1, 'gpt-4o-az': 1 }) });
  azureId = await insertChannel(h.deps, {
    type: 3,
    key: 'azure-key',
    baseUrl: h.fake.url,
    models: ['gpt-4.1', 'gpt-4o-az'],
  });
});
afterAll(async () => {
  await h.close();
});

describe('Azure OpenAI channels (type 3)', () => {
  it('call {base}/openai/deployments/{model}/{task}?api-version=… with an api-key header; the configured default version unless the channel names one', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0].message.content).toContain('w0');
    const sent = h.fake.requests.at(-1)!;
    expect(sent.path).toBe(`/openai/deployments/gpt-41/chat/completions?api-version=${CONFIGURED_VERSION}`);
    expect(sent.headers['api-key']).toBe('azure-key');
    expect(sent.headers.authorization).toBeUndefined();
    await h.deps.db.updateTable('channels').set({ other: '2025-01-01-preview' }).where('id', '=', azureId).execute();
    await relayRuntimeOf(h.deps)!.routing.reload();
    const s = await h
      .client(p.key)
      .chat.completions.create({ model: 'gpt-4o-az', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const c of s) text += c.choices[0]?.delta?.content ?? '';
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(h.fake.requests.at(-1)!.path).toBe(
      '/openai/deployments/gpt-4o-az/chat/completions?api-version=2025-01-01-preview',
    );
    expect(await p.charges()).toHaveLength(2);
  });
});

describe('GET /v1/models in the caller dialect', () => {
  it('OpenAI by default, Anthropic with x-api-key + anthropic-version, Gemini with x-goog-api-key or ?key=', async () => {
    const p = await payer(h);
    const get = (path: string, headers: Record<string, string>) =>
      fetch(`${h.baseURL}${path}`, { headers }).then((r) => r.json());
    expect(await get('/models', { authorization: `Bearer ${p.key}` })).toMatchObject({
      object: 'list',
      data: expect.arrayContaining([expect.objectContaining({ id: 'gpt-4.1', object: 'model' })]),
    });
    const a = await get('/models', { 'x-api-key': p.key, 'anthropic-version': '2023-06-01' });
    expect(a).toMatchObject({
      has_more: false,
      data: expect.arrayContaining([expect.objectContaining({ type: 'model', id: 'gpt-4.1' })]),
    });
    const g = await get('/models', { 'x-goog-api-key': p.key });
    expect(g.models).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'models/gpt-4.1' })]));
    const q = await get(`/models?key=${p.key}`, {});
    expect(q.models).toHaveLength(2);
  });

  it("the Anthropic SDK's retrieve and list get Anthropic's shape, OpenAI's its own", async () => {
    const p = await payer(h);
    const anthropic = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    expect(await anthropic.models.retrieve('gpt-4.1')).toEqual({
      type: 'model',
      id: 'gpt-4.1',
      display_name: 'gpt-4.1',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await expect(anthropic.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
    // The SDK authenticates with Bearer: its anthropic-version header is what says who is asking.
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.type)).toEqual(['model', 'model']);
    expect(await h.client(p.key).models.retrieve('gpt-4.1')).toMatchObject({ id: 'gpt-4.1', object: 'model' });
  });

  it("a Gemini caller gets Gemini's model object from /v1/models/{model}, and errors in each caller's shape", async () => {
    const p = await payer(h);
    const get = (path: string, headers: Record<string, string>) =>
      fetch(`${h.baseURL}${path}`, { headers }).then(async (r) => ({ status: r.status, body: await r.json() }));
    for (const one of [
      await get('/models/gpt-4.1', { 'x-goog-api-key': p.key }),
      await get(`/models/gpt-4.1?key=${p.key}`, {}),
    ])
      expect(one).toEqual({
        status: 200,
        body: expect.objectContaining({ name: 'models/gpt-4.1', displayName: 'gpt-4.1' }),
      });
    const gemini = await get('/models', { 'x-goog-api-key': 'sk-wrong' });
    expect(gemini.status).toBe(401);
    expect(gemini.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    const anthropic = await get('/models', { 'x-api-key': 'sk-wrong', 'anthropic-version': '2023-06-01' });
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const openai = await get('/models', { authorization: 'Bearer sk-wrong' });
    expect(openai.body.error).toMatchObject({ type: 'authentication_error' });
    expect(openai.body.type).toBeUndefined();
  });
});
