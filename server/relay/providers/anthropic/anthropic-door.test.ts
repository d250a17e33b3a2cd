import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { ascending, payer, PNG_1PX, quotaOf, startAnthropic } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let ant: FakeUpstream;
let gem: FakeUpstream;
const R = { model: 2, completion: 3, cache: 0.1, creation: 1.25 };
const models = ['claude-d', 'claude-d-cache', 'gpt-d', 'gem-d', 'claude-d-401', 'claude-d-cut', 'claude-d-sys'];

beforeAll(async () => {
  h = await startRelayHarness();
  ant = await startAnthropic();
  gem = await startFakeGemini();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'claude-d-cache': R.cache }),
    CacheCreationRatio: JSON.stringify({ 'claude-d-cache': R.creation }),
  });
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: ['claude-d', 'claude-d-cache', 'claude-d-401', 'claude-d-cut'],
    autoBan: false,
    modelMapping: {
      'claude-d-cache': 'claude-d+cache-50+cachew-20',
      'claude-d-401': 'claude+bad-key',
      'claude-d-cut': 'claude+reset-mid-stream',
    },
  });
  await insertChannel(h.deps, { type: 1, baseUrl: h.fake.url, models: ['gpt-d'] });
  await insertChannel(h.deps, { type: 24, baseUrl: gem.url, models: ['gem-d'] });
  await insertChannel(h.deps, { type: 14, baseUrl: ant.url, models: ['claude-d-sys'], systemPrompt: 'House rules.' });
});
afterAll(async () => {
  await h.close();
  await ant.close();
  await gem.close();
});

const client = (key: string) => new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
const tool = {
  name: 'get_weather',
  description: 'Weather',
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
};

describe('POST /v1/messages with the official Anthropic SDK', () => {
  it('relays natively to an Anthropic channel (body unchanged) and bills cache tokens to the unit', async () => {
    const p = await payer(h);
    const m = await client(p.key).messages.create({
      model: 'claude-d-cache',
      max_tokens: 300,
      system: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX.split(',')[1] } },
          ],
        },
      ],
    });
    expect(m.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
    expect(m.usage).toMatchObject({ cache_read_input_tokens: 50, cache_creation_input_tokens: 20, output_tokens: 5 });
    const sent = ant.requests.at(-1)!;
    expect(sent.body).toMatchObject({ model: 'claude-d+cache-50+cachew-20', system: 'Be brief.', max_tokens: 300 });
    expect(sent.headers['x-api-key']).toBe('sk-upstream-key');
    const u = m.usage;
    const q = quotaOf({ prompt: u.input_tokens + 50, completion: 5, cached: 50, creation: 20 }, R);
    expect(await p.charges()).toEqual([q]);
  });

  it("a native request gets the channel's system prompt only when it has no system of its own", async () => {
    const c = client((await payer(h)).key);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await c.messages.create({ model: 'claude-d-sys', max_tokens: 50, messages });
    expect(ant.requests.at(-1)!.body.system).toBe('House rules.');
    await c.messages.create({ model: 'claude-d-sys', max_tokens: 50, system: 'Be brief.', messages });
    expect(ant.requests.at(-1)!.body.system).toBe('Be brief.');
  });

  it("passes the client's anthropic-beta header on to an Anthropic channel (the SDK's betas)", async () => {
    const p = await payer(h);
    const m = await client(p.key).beta.messages.create({
      model: 'claude-d',
      max_tokens: 50,
      betas: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(m.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
    expect(ant.requests.at(-1)!.headers['anthropic-beta']).toBe(
      'context-1m-2025-08-07,interleaved-thinking-2025-05-14',
    );
    await client(p.key).messages.create({
      model: 'claude-d',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ant.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('streams natively: the SDK assembles text and tool_use; billed from message_start/message_delta', async () => {
    const p = await payer(h);
    const c = client(p.key);
    const s = c.messages.stream({ model: 'claude-d', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const final = await s.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
    const t = await c.messages
      .stream({ model: 'claude-d', max_tokens: 100, tools: [tool], messages: [{ role: 'user', content: 'weather?' }] })
      .finalMessage();
    expect(t.stop_reason).toBe('tool_use');
    expect(t.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { location: 'Paris' } });
    const charges = await p.charges();
    expect(charges).toEqual(
      ascending([
        quotaOf({ prompt: final.usage.input_tokens, completion: 5 }, R),
        quotaOf({ prompt: t.usage.input_tokens, completion: 7 }, R),
      ]),
    );
  });

  it('a native stream broken before message_delta bills the text it carried, not the opening 1 token', async () => {
    const p = await payer(h);
    const s = client(p.key).messages.stream({
      model: 'claude-d-cut',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let received = '';
    s.on('text', (t) => (received += t));
    await expect(s.finalMessage()).rejects.toThrow();
    const words = received.trim().split(/\s+/).length;
    expect(words).toBeGreaterThan(1);
    const [log] = await p.logs();
    expect(log.completion_tokens).toBeGreaterThanOrEqual(words);
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: Number(log.prompt_tokens), completion: Number(log.completion_tokens) }, R),
    ]);
  });

  for (const [label, model] of [
    ['an OpenAI', 'gpt-d'],
    ['a Gemini', 'gem-d'],
  ] as const) {
    it(`converts to ${label} channel and back: text, image in, usage and billing`, async () => {
      const p = await payer(h);
      const m = await client(p.key).messages.create({
        model,
        max_tokens: 50,
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'one' },
          { role: 'assistant', content: 'ok' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'see' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX.split(',')[1] } },
            ],
          },
        ],
      });
      expect(m).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
      expect(m.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
      expect(m.usage.output_tokens).toBe(5);
      expect(await p.charges()).toEqual([quotaOf({ prompt: m.usage.input_tokens, completion: 5 }, R)]);
    });

    it(`converts streaming and tool calls to ${label} channel`, async () => {
      const p = await payer(h);
      const c = client(p.key);
      const text = await c.messages
        .stream({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage();
      expect(text.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
      expect(text.usage.output_tokens).toBe(5);
      expect(text.usage.input_tokens).toBeGreaterThan(0);
      if (model === 'gpt-d') return;
      const t = await c.messages
        .stream({ model, max_tokens: 50, tools: [tool], messages: [{ role: 'user', content: 'weather?' }] })
        .finalMessage();
      expect(t.stop_reason).toBe('tool_use');
      expect(t.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { location: 'Paris' } });
      const back = await c.messages.create({
        model,
        max_tokens: 50,
        tools: [tool],
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
        ],
      });
      expect(back.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
      const contents = gem.requests.at(-1)!.body.contents as { parts: object[] }[];
      expect(contents[2].parts[0]).toEqual({
        functionResponse: { name: 'get_weather', response: { content: 'sunny' } },
      });
      expect(await p.charges()).toHaveLength(3);
    });
  }

  it('answers errors in Anthropic shape: bad token, upstream 401, missing max_tokens', async () => {
    const p = await payer(h);
    await expect(
      client('sk-nope').messages.create({
        model: 'claude-d',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
    await expect(
      client(p.key).messages.create({
        model: 'claude-d-401',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 401,
      error: {
        type: 'error',
        error: { type: 'authentication_error', message: expect.stringContaining('invalid x-api-key') },
      },
    });
    const res = await fetch(`${h.baseURL}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': p.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-d', messages: [] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(await p.charges()).toEqual([]);
  });
});
