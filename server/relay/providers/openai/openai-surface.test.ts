import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
const R = { model: 1.25, completion: 4 };

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      'gpt-resp': R.model,
      'omni-moderation-latest': 0.1,
      'jina-rerank': 0.5,
      'cohere-rerank': 0.5,
    }),
    CompletionRatio: JSON.stringify({ 'gpt-resp': R.completion }),
    ModelPrice: JSON.stringify({ 'dall-e-2': 0.04 }),
  });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['gpt-resp', 'omni-moderation-latest', 'dall-e-2'] });
  await insertChannel(h.deps, { type: 38, baseUrl: h.fake.url, models: ['jina-rerank'] });
  await insertChannel(h.deps, { type: 34, baseUrl: h.fake.url, models: ['cohere-rerank'] });
});
afterAll(async () => {
  await h.close();
});

describe('the rest of the OpenAI surface', () => {
  it('/v1/responses: JSON and SSE through the SDK, billed from the reported usage', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.responses.create({ model: 'gpt-resp', input: 'hello there' });
    expect(r.output_text).toBe('w0 w1 w2 w3 w4 ');
    expect(h.fake.requests.at(-1)!.path).toBe('/v1/responses');
    const s = await c.responses.create({ model: 'gpt-resp', input: 'hello there', stream: true });
    let text = '';
    let completed;
    for await (const ev of s) {
      if (ev.type === 'response.output_text.delta') text += ev.delta;
      if (ev.type === 'response.completed') completed = ev.response;
    }
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(h.fake.requests.at(-1)!.body.stream_options).toBeUndefined();
    const q1 = quotaOf({ prompt: r.usage!.input_tokens, completion: 5 }, R);
    const q2 = quotaOf({ prompt: completed!.usage!.input_tokens, completion: 5 }, R);
    expect(await p.charges()).toEqual([q1, q2]);
    expect((await p.logs()).map((l) => l.is_stream)).toEqual([0, 1]);
  });

  it('/v1/moderations without a model uses omni-moderation-latest; counted by the tokenizer', async () => {
    const p = await payer(h);
    const m = await h.client(p.key).moderations.create({ input: 'some text to check' });
    expect(m.results[0].flagged).toBe(false);
    const [log] = await p.logs();
    expect(log.model_name).toBe('omni-moderation-latest');
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(await p.charges()).toEqual([Math.max(1, Math.round(log.prompt_tokens * 0.1))]);
  });

  it('/v1/images/generations: a fixed ModelPrice is charged per image', async () => {
    const p = await payer(h);
    // dall-e-3 makes one picture a call (OpenAI refuses n > 1): dall-e-2 shows n.
    const r = await h.client(p.key).images.generate({ model: 'dall-e-2', prompt: 'a cat', n: 2 });
    expect(r.data).toHaveLength(2);
    expect(await p.charges()).toEqual([Math.round(0.04 * 500_000) * 2]);
  });

  it('/v1/rerank to Jina (38) and Cohere (34) channels, billed by the reported tokens', async () => {
    const p = await payer(h);
    for (const model of ['jina-rerank', 'cohere-rerank']) {
      const res = await fetch(`${h.baseURL}/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, query: 'cats', documents: ['a cat', 'a dog', 'a car'], top_n: 2 }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { index: number }[]; usage: { total_tokens: number } };
      expect(body.results[0].index).toBe(0);
      expect(h.fake.requests.at(-1)!.path).toBe('/v1/rerank');
    }
    const logs = await p.logs();
    expect(logs.map((l) => l.prompt_tokens)).toEqual([5, 5]);
    expect(await p.charges()).toEqual([3, 3]);
  });

  it('refuses chat on a rerank-only Cohere channel with a clear error', async () => {
    const p = await payer(h);
    await expect(
      h.client(p.key).chat.completions.create({ model: 'cohere-rerank', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 503 });
  });
});
