import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../../runtime.ts';
import { openAIUrl } from '../openai/adapter.ts';
import type { AttemptContext } from '../types.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';

/* relay.md §9: OpenAI-compatible vendors go through the OpenAI adapter with their own base URL. */

let h: RelayHarness;
const R = { model: 1, completion: 2 };

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      '360gpt-pro': R.model,
      'embedding-bert-512-v1': R.model,
      'mistral-small-latest': R.model,
      'kimi-k2': R.model,
    }),
    CompletionRatio: JSON.stringify({ '360gpt-pro': R.completion }),
  });
  await insertChannel(h.deps, {
    type: 19,
    key: 'key-360',
    baseUrl: h.fake.url,
    models: ['360gpt-pro', 'embedding-bert-512-v1'],
  });
});
afterAll(async () => {
  await h.close();
});

describe("OpenAI's prompt-cache hints on vendors (issue 29)", () => {
  it('reach a vendor that reads them or ignores what it does not know; Mistral, strict, gets no retention', async () => {
    await insertChannel(h.deps, { type: 42, baseUrl: h.fake.url, models: ['mistral-small-latest'] });
    await insertChannel(h.deps, { type: 25, baseUrl: h.fake.url, models: ['kimi-k2'] });
    const c = h.client((await payer(h)).key);
    const hints = { prompt_cache_key: 'session-7', prompt_cache_retention: '24h' as const };
    const ask = (model: string) =>
      c.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], ...hints });
    await ask('kimi-k2');
    expect(h.fake.requests.at(-1)!.body).toMatchObject(hints);
    await ask('mistral-small-latest');
    const mistral = h.fake.requests.at(-1)!.body;
    expect(mistral.prompt_cache_key).toBe('session-7');
    expect(mistral).not.toHaveProperty('prompt_cache_retention');
  });
});

describe('360 channels (type 19)', () => {
  it('relay chat (JSON and SSE) and embeddings to {base}/v1/... with a Bearer key, billed from the usage', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.chat.completions.create({ model: '360gpt-pro', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = h.fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer key-360');
    expect(sent.body.model).toBe('360gpt-pro');

    const s = await c.chat.completions.create({
      model: '360gpt-pro',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of s) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('w0 w1 w2 w3 w4 ');

    const e = await c.embeddings.create({ model: 'embedding-bert-512-v1', input: 'hello', encoding_format: 'float' });
    expect(e.data[0].embedding).toEqual([0.1, 0.2, 0.3, 0.4]);
    expect(h.fake.requests.at(-1)!.path).toBe('/v1/embeddings');

    const prompt = r.usage!.prompt_tokens;
    expect(await p.charges()).toEqual(
      [
        quotaOf({ prompt, completion: 5 }, R),
        quotaOf({ prompt, completion: 5 }, R),
        quotaOf({ prompt: e.usage.prompt_tokens, completion: 0 }, R),
      ].sort((a, b) => a - b),
    );
  });

  it('a channel without a base URL calls https://api.360.cn/v1/...', async () => {
    const id = await insertChannel(h.deps, { type: 19, baseUrl: '', models: ['360gpt-turbo'] });
    const channel = relayRuntimeOf(h.deps)!.routing.channel(id)!;
    expect(channel.baseUrl).toBe('https://api.360.cn');
    expect(openAIUrl({ mode: 'chat', channel } as AttemptContext)).toBe('https://api.360.cn/v1/chat/completions');
  });
});
