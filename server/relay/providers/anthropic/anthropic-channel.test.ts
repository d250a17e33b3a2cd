import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, PNG_1PX, quotaOf, startAnthropic } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let fake: FakeUpstream;
const R = { model: 1.5, completion: 5, cache: 0.1, creation: 1.25 };

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startAnthropic();
  const models = ['claude-t', 'claude-t-thinking', 'claude-c', 'claude-529', 'claude-cut'];
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'claude-c': R.cache }),
    CacheCreationRatio: JSON.stringify({ 'claude-c': R.creation }),
    'claude.default_max_tokens': JSON.stringify({ default: 4096, 'claude-t': 2000 }),
    'claude.model_headers_settings': JSON.stringify({ 'claude-t': { 'anthropic-beta': ['b1', 'b2'] } }),
  });
  await insertChannel(h.deps, {
    type: 14,
    key: 'sk-ant-upstream',
    baseUrl: fake.url,
    models,
    modelMapping: {
      'claude-c': 'claude-c+cache-40+cachew-12',
      'claude-529': 'claude+fail-529',
      'claude-cut': 'claude+reset-mid-stream',
    },
    // These tests read the conversion block by block; the automatic breakpoints have cache-breakpoints.test.ts.
    setting: { auto_cache_control: false },
  });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { location: { type: 'string' } } },
  },
};

describe('OpenAI clients on an Anthropic channel (type 14)', () => {
  it('converts the request (system, merged turns, images, stop, default max_tokens, headers) and the answer', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'claude-t',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'two' },
            { type: 'image_url', image_url: { url: PNG_1PX } },
          ],
        },
      ],
      stop: 'END',
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.choices[0].finish_reason).toBe('stop');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['anthropic-beta']).toBe('b1,b2');
    expect(sent.body).toMatchObject({ system: 'Be brief.', max_tokens: 2000, stop_sequences: ['END'] });
    const msgs = sent.body.messages as { role: string; content: { type: string; source?: object }[] }[];
    expect(msgs).toHaveLength(1);
    expect(msgs[0].content.map((c) => c.type)).toEqual(['text', 'text', 'image']);
    expect(msgs[0].content[2].source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    const u = r.usage!;
    expect(await p.charges()).toEqual([quotaOf({ prompt: u.prompt_tokens, completion: 5 }, R)]);
  });

  it('tool calls both ways, not streamed and streamed', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.chat.completions.create({
      model: 'claude-t',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [weather],
      tool_choice: 'required',
    });
    expect(r.choices[0].finish_reason).toBe('tool_calls');
    const call = r.choices[0].message.tool_calls![0];
    expect(call).toMatchObject({ id: 'toolu_fake1', type: 'function' });
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ location: 'Paris' });
    expect(fake.requests.at(-1)!.body.tool_choice).toEqual({ type: 'any' });
    expect(fake.requests.at(-1)!.body.tools).toEqual([
      { name: 'get_weather', description: 'Weather', input_schema: weather.function.parameters },
    ]);

    const s = await c.chat.completions.create({
      model: 'claude-t',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [weather],
      stream: true,
    });
    let args = '';
    let name = '';
    let finish = '';
    let role = '';
    for await (const ch of s) {
      const d = ch.choices[0]?.delta;
      role ||= d?.role ?? '';
      for (const t of d?.tool_calls ?? []) {
        name += t.function?.name ?? '';
        args += t.function?.arguments ?? '';
      }
      finish ||= ch.choices[0]?.finish_reason ?? '';
    }
    expect({ role, name, args: JSON.parse(args), finish }).toEqual({
      role: 'assistant',
      name: 'get_weather',
      args: { location: 'Paris' },
      finish: 'tool_calls',
    });

    const back = await c.chat.completions.create({
      model: 'claude-t',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'toolu_fake1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_fake1', content: 'sunny' },
      ],
      tools: [weather],
    });
    expect(back.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const msgs = fake.requests.at(-1)!.body.messages as { role: string; content: object[] }[];
    expect(msgs[1].content[0]).toEqual({
      type: 'tool_use',
      id: 'toolu_fake1',
      name: 'get_weather',
      input: { location: 'Paris' },
    });
    expect(msgs[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_fake1', content: 'sunny' }],
    });
    expect(await p.charges()).toHaveLength(3);
  });

  it('streams text with role first and bills the stream usage to the unit', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'claude-t',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const ch of s) chunks.push(ch);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('w0 w1 w2 w3 w4 ');
    const usage = chunks.at(-1)!.usage!;
    expect(usage.completion_tokens).toBe(5);
    expect(await p.charges()).toEqual([quotaOf({ prompt: usage.prompt_tokens, completion: 5 }, R)]);
  });

  it('bills what was produced when the stream breaks before the final usage (message_start said 1 token)', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'claude-cut',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let received = '';
    await expect(
      (async () => {
        for await (const ch of s) received += ch.choices[0]?.delta?.content ?? '';
      })(),
    ).rejects.toThrow();
    const words = received.trim().split(/\s+/).length;
    expect(words).toBeGreaterThan(1);
    const [log] = await p.logs();
    // Each word the client got is at least one token; the upstream's opening count was 1.
    expect(log.completion_tokens).toBeGreaterThanOrEqual(words);
    expect(JSON.parse(log.other)).toMatchObject({ usage_counted: true });
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: Number(log.prompt_tokens), completion: Number(log.completion_tokens) }, R),
    ]);
  });

  it('bills Anthropic cache reads and writes on top of input tokens', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-c', messages: [{ role: 'user', content: 'cached' }] });
    const input = (r.usage!.prompt_tokens ?? 0) - 40 - 12;
    expect(r.usage!.prompt_tokens_details?.cached_tokens).toBe(40);
    const expected = quotaOf({ prompt: input + 40, completion: 5, cached: 40, creation: 12 }, R);
    expect(await p.charges()).toEqual([expected]);
    const other = JSON.parse((await p.logs())[0].other);
    expect(other).toMatchObject({
      cache_tokens: 40,
      cache_creation_tokens: 12,
      cache_ratio: 0.1,
      cache_creation_ratio: 1.25,
    });
  });

  it('thinking adapter: -thinking enables a budget and returns reasoning_content', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'claude-t-thinking',
      messages: [{ role: 'user', content: 'think' }],
      max_tokens: 10000,
      temperature: 0.2,
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'claude-t',
      thinking: { type: 'enabled', budget_tokens: 8000 },
      temperature: 1,
      max_tokens: 10000,
    });
    expect(r.choices[0].message).toMatchObject({ content: 'w0 w1 w2 w3 w4 ', reasoning_content: 'Let me think.' });
    expect(r.usage!.completion_tokens).toBe(8);
  });

  it('maps a 529 overloaded answer to an OpenAI error and refunds', async () => {
    const p = await payer(h);
    await expect(
      h.client(p.key).chat.completions.create({ model: 'claude-529', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 529, message: expect.stringContaining('Overloaded') });
    expect(await p.charges()).toEqual([]);
  });
});
