import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedThinkingData, signThinking } from '../../../../scripts/fake-upstream/strict/signatures.ts';
import { startStrictUpstream } from '../../../../scripts/fake-upstream/strict/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { GATEWAY_SIGNATURE } from '../../front-doors/anthropic/request.ts';
import { payer, PNG_1PX } from '../../../../test/provider-fixtures.ts';

/*
 * The Anthropic dialect both ways (issue #20), through the official SDKs: OpenAI chat clients on
 * an Anthropic upstream (thinking and its signatures across a tool loop, reasoning_effort, structured
 * output, images and errors in tool results, refusals) and Anthropic clients on an OpenAI upstream
 * (streamed tool calls that repeat their id, the prompt size in message_start, thinking signatures).
 */

let h: RelayHarness;
let ant: FakeUpstream;
let oai: { url: string; requests: Record<string, unknown>[]; close(): Promise<void> };
const models = ['claude-x', 'claude-loop', 'claude-red', 'claude-x-thinking', 'gpt-rep'];

beforeAll(async () => {
  h = await startRelayHarness();
  ant = await startStrictUpstream('anthropic');
  oai = await startRepeatingIdUpstream();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))),
    'claude.default_max_tokens': JSON.stringify({ default: 8192 }),
  });
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: models.filter((m) => m.startsWith('claude')),
    modelMapping: { 'claude-loop': 'claude-x+loop-3', 'claude-red': 'claude-x+loop-3+redacted' },
    // These tests read the conversion block by block; the automatic breakpoints have cache-breakpoints.test.ts.
    setting: { auto_cache_control: false },
  });
  await insertChannel(h.deps, { type: 1, baseUrl: oai.url, models: ['gpt-rep'] });
});
afterAll(async () => {
  await h.close();
  await ant.close();
  await oai.close();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { location: { type: 'string' } } },
  },
};
type Sent = { role: string; content: { type: string; [k: string]: unknown }[] }[];
const lastSent = () => ant.requests.at(-1)!.body;
const sentMessages = () => lastSent().messages as Sent;

/** What a typical OpenAI client echoes of an assistant turn: content and tool calls, nothing else. */
const echo = (
  m: OpenAI.Chat.Completions.ChatCompletionMessage,
): OpenAI.Chat.Completions.ChatCompletionMessageParam => ({
  role: 'assistant',
  content: m.content,
  tool_calls: m.tool_calls,
});

describe('OpenAI chat clients on an Anthropic upstream', () => {
  it('a 3-turn tool loop with thinking: the signed thinking goes back on turns 2 and 3 though the client dropped it', async () => {
    const c = h.client((await payer(h)).key);
    const ask = { model: 'claude-loop', tools: [weather], reasoning_effort: 'low' as const };
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }];

    const one = await c.chat.completions.create({ ...ask, messages: history });
    expect(lastSent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const first = one.choices[0].message;
    expect(first).toMatchObject({ reasoning_content: 'Let me think.' });
    expect((first as unknown as { thinking_blocks: unknown }).thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: signThinking('Let me think.') },
    ]);
    history.push(echo(first), { role: 'tool', tool_call_id: first.tool_calls![0].id, content: 'sunny' });

    // Turn 2 streamed: the stream converter remembers the signature it read from signature_delta.
    let id = '';
    for await (const ch of await c.chat.completions.create({ ...ask, messages: history, stream: true }))
      for (const t of ch.choices[0]?.delta?.tool_calls ?? []) id ||= t.id ?? '';
    expect(id).toBe('toolu_fake2');
    expect(lastSent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sentMessages()[1].content[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me think.',
      signature: signThinking('Let me think.'),
    });
    history.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: id, content: 'still sunny' },
    );

    const three = await c.chat.completions.create({ ...ask, messages: history });
    expect(three.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = sentMessages();
    expect(lastSent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sent.map((m) => m.content.map((b) => b.type))).toEqual([
      ['text'],
      ['thinking', 'tool_use'],
      ['tool_result'],
      ['thinking', 'tool_use'],
      ['tool_result'],
    ]);
    const turn2 = 'Let me think about result 1.';
    expect(sent[3].content[0]).toEqual({ type: 'thinking', thinking: turn2, signature: signThinking(turn2) });
  });

  it('redacted thinking is kept and given back with the signed block', async () => {
    const c = h.client((await payer(h)).key);
    const ask = { model: 'claude-red', tools: [weather], reasoning_effort: 'medium' as const };
    const one = await c.chat.completions.create({ ...ask, messages: [{ role: 'user', content: 'weather?' }] });
    const m = one.choices[0].message;
    const redacted = { type: 'redacted_thinking', data: redactedThinkingData('turn-0') };
    expect((m as unknown as { thinking_blocks: unknown[] }).thinking_blocks[1]).toEqual(redacted);
    await c.chat.completions.create({
      ...ask,
      messages: [
        { role: 'user', content: 'weather?' },
        echo(m),
        { role: 'tool', tool_call_id: m.tool_calls![0].id, content: 'sunny' },
      ],
    });
    expect(sentMessages()[1].content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: signThinking('Let me think.') },
      redacted,
    ]);
  });

  it('a tool loop whose signed thinking is nowhere to be found goes without thinking (Anthropic would refuse it)', async () => {
    const c = h.client((await payer(h)).key);
    const r = await c.chat.completions.create({
      model: 'claude-x',
      reasoning_effort: 'high',
      tools: [weather],
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_elsewhere', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_elsewhere', content: 'sunny' },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(lastSent().thinking).toBeUndefined();
  });

  it('reasoning_effort maps to a budget by the one table, clamped to Anthropic rules; none turns -thinking off', async () => {
    const c = h.client((await payer(h)).key);
    const messages = [{ role: 'user' as const, content: 'think' }];
    await c.chat.completions.create({
      model: 'claude-x',
      messages,
      reasoning_effort: 'high',
      max_tokens: 4000,
      top_p: 0.5,
    });
    expect(lastSent()).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 16384 },
      max_tokens: 20384,
      temperature: 1,
    });
    expect(lastSent()).not.toHaveProperty('top_p');
    await c.chat.completions.create({ model: 'claude-x', messages, reasoning_effort: 'minimal', max_tokens: 500 });
    expect(lastSent()).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1524 });
    // OpenRouter's form of the same request.
    await c.chat.completions.create({ model: 'claude-x', messages, reasoning: { max_tokens: 3000 } } as never);
    expect(lastSent()).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 3000 }, max_tokens: 8192 });
    await c.chat.completions.create({ model: 'claude-x-thinking', messages, reasoning_effort: 'none' as never });
    expect(lastSent()).not.toHaveProperty('thinking');
    await c.chat.completions.create({ model: 'claude-x', messages, temperature: 1.6 });
    expect(lastSent()).toMatchObject({ temperature: 1 });
    expect(lastSent()).not.toHaveProperty('thinking');
  });

  it('json_schema is emulated with a forced tool: the answer is the JSON content, not a tool call (JSON and stream)', async () => {
    const c = h.client((await payer(h)).key);
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, temp: { type: 'number' } },
      required: ['city', 'temp'],
    };
    const ask = {
      model: 'claude-x',
      messages: [{ role: 'user' as const, content: 'weather as JSON' }],
      response_format: { type: 'json_schema' as const, json_schema: { name: 'weather', schema } },
    };
    const r = await c.chat.completions.create(ask);
    expect(lastSent().tool_choice).toEqual({ type: 'tool', name: 'weather' });
    expect(lastSent().tools).toEqual([expect.objectContaining({ name: 'weather', input_schema: schema })]);
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(r.choices[0].message.tool_calls).toBeUndefined();
    expect(JSON.parse(r.choices[0].message.content!)).toEqual({ city: 'Paris', temp: 1 });

    let text = '';
    let finish = '';
    for await (const ch of await c.chat.completions.create({ ...ask, stream: true })) {
      expect(ch.choices[0]?.delta?.tool_calls).toBeUndefined();
      text += ch.choices[0]?.delta?.content ?? '';
      finish ||= ch.choices[0]?.finish_reason ?? '';
    }
    expect(JSON.parse(text)).toEqual({ city: 'Paris', temp: 1 });
    expect(finish).toBe('stop');

    // A root that is not an object is wrapped for Anthropic and unwrapped for the client.
    const list = await c.chat.completions.create({
      ...ask,
      response_format: { type: 'json_schema', json_schema: { name: 'cities', schema: { type: 'array' } } },
    });
    expect(JSON.parse(list.choices[0].message.content!)).toEqual([]);

    await c.chat.completions.create({ ...ask, response_format: { type: 'json_object' } });
    expect(lastSent().system).toMatch(/single valid JSON object/);
    expect(lastSent()).not.toHaveProperty('tools');
  });

  it('tool results keep their images and is_error; system parts and documents keep cache_control', async () => {
    const c = h.client((await payer(h)).key);
    const cache = { type: 'ephemeral' };
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4').toString('base64')}`;
    await c.chat.completions.create({
      model: 'claude-x',
      tools: [weather],
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are terse.' },
            { type: 'text', text: 'Project rules.', cache_control: cache },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'read this' },
            { type: 'file', file: { file_data: pdf, filename: 'a.pdf' }, cache_control: cache },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_s', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'toolu_s',
          is_error: true,
          content: [
            { type: 'text', text: 'screenshot of the failure' },
            { type: 'image_url', image_url: { url: PNG_1PX } },
          ],
        },
      ] as never,
    });
    expect(lastSent().system).toEqual([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Project rules.', cache_control: cache },
    ]);
    const sent = sentMessages();
    expect(sent[0].content[1]).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: pdf.split(',')[1] },
      title: 'a.pdf',
      cache_control: cache,
    });
    expect(sent[2].content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_s',
      is_error: true,
      content: [
        { type: 'text', text: 'screenshot of the failure' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX.split(',')[1] } },
      ],
    });
  });

  it('hints are dropped, unknown fields and n>1 are refused with a 400 in OpenAI shape (Chinese on request)', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await c.chat.completions.create({
      model: 'claude-x',
      messages,
      prompt_cache_key: 'k',
      safety_identifier: 'user-7',
      store: false,
      metadata: { app: 'x' },
      service_tier: 'flex',
      verbosity: 'low',
      seed: 3,
      stream_options: null,
    } as never);
    const sent = lastSent();
    expect(Object.keys(sent).sort()).toEqual(['max_tokens', 'messages', 'metadata', 'model']);
    expect(sent.metadata).toEqual({ user_id: 'user-7' });

    const before = ant.requests.length;
    await expect(c.chat.completions.create({ model: 'claude-x', messages, foo_bar: 1 } as never)).rejects.toMatchObject(
      {
        status: 400,
        error: { type: 'invalid_request_error', message: expect.stringContaining('foo_bar') },
      },
    );
    await expect(c.chat.completions.create({ model: 'claude-x', messages, n: 2 })).rejects.toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('Anthropic returns one answer per request') },
    });
    const zh = h.client(p.key).withOptions({ defaultHeaders: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } });
    await expect(zh.chat.completions.create({ model: 'claude-x', messages, n: 2 })).rejects.toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('每次请求只返回一个回答') },
    });
    expect(ant.requests.length).toBe(before);
    expect((await p.charges()).length).toBe(1);
  });

  it("web_search_options is left out (Anthropic's search is not carried) and the answer says so", async () => {
    const p = await payer(h);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const { data, response } = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-x', messages, web_search_options: {} })
      .withResponse();
    expect(data.choices[0].message.content).toBeTruthy();
    expect(response.headers.get('x-switchyard-dropped-tools')).toBe('web_search_options');
    expect(Object.keys(lastSent())).not.toContain('web_search_options');
    const [row] = await p.logs();
    expect(JSON.parse(String(row.other))).toMatchObject({ dropped_tools: ['web_search_options'] });
  });
});

const anthropic = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
const tool = {
  name: 'get_weather',
  description: 'Weather',
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
};

describe('Anthropic clients on an OpenAI upstream', () => {
  it('a streamed tool call whose chunks repeat the id is one tool_use block; message_start counts the prompt', async () => {
    const a = anthropic((await payer(h)).key);
    const s = a.messages.stream({
      model: 'gpt-rep',
      max_tokens: 200,
      tools: [tool],
      messages: [{ role: 'user', content: 'What is the weather in Paris? Answer with the tool.' }],
    });
    const events: Anthropic.Messages.RawMessageStreamEvent[] = [];
    s.on('streamEvent', (e) => events.push(e));
    const m = await s.finalMessage();
    expect(m.stop_reason).toBe('tool_use');
    expect(m.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(m.content[1]).toMatchObject({ id: 'call_rep', name: 'get_weather', input: { location: 'Paris' } });
    // Reasoning from another provider gets the gateway's signature, sent before the block ends.
    expect(m.content[0]).toEqual({ type: 'thinking', thinking: 'Checking.', signature: GATEWAY_SIGNATURE });
    const start = events.find((e) => e.type === 'message_start')!;
    expect(start.type === 'message_start' && start.message.usage.input_tokens).toBeGreaterThan(5);
    // message_delta carries the upstream's own count, which the final message keeps.
    expect(m.usage.input_tokens).toBe(42);
  });

  it('a JSON answer counts the prompt when the upstream reports no usage, and signs relayed thinking', async () => {
    const a = anthropic((await payer(h)).key);
    const m = await a.messages.create({
      model: 'gpt-rep',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi there' }],
    });
    expect(m.content).toEqual([
      { type: 'thinking', thinking: 'Checking.', signature: GATEWAY_SIGNATURE },
      { type: 'text', text: 'Sunny.' },
    ]);
    expect(m.usage.input_tokens).toBeGreaterThan(0);
  });

  it('thinking the gateway signed never reaches Anthropic as a signed block', async () => {
    const a = anthropic((await payer(h)).key);
    await a.messages.create({
      model: 'claude-x',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Checking.', signature: GATEWAY_SIGNATURE },
            { type: 'text', text: 'Sunny.' },
          ],
        },
        { role: 'user', content: 'and tomorrow?' },
      ],
    });
    expect(sentMessages()[1].content).toEqual([{ type: 'text', text: 'Sunny.' }]);
  });
});

/**
 * An OpenAI-compatible upstream in the manner of some vendors: every chunk of a streamed tool
 * call repeats the call's id (and type and name), reasoning comes first as reasoning_content,
 * usage is reported in streams only.
 */
async function startRepeatingIdUpstream() {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      requests.push(body);
      const base = { id: 'chatcmpl-rep', object: 'chat.completion.chunk', created: 1, model: body.model };
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const message = { role: 'assistant', content: 'Sunny.', reasoning_content: 'Checking.' };
        return res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message, finish_reason: 'stop' }],
          }),
        );
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (delta: object, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      send({ role: 'assistant', content: null });
      send({ reasoning_content: 'Checking.' });
      const call = (args: string) => ({
        tool_calls: [
          { index: 0, id: 'call_rep', type: 'function', function: { name: 'get_weather', arguments: args } },
        ],
      });
      for (const piece of ['', '{"loca', 'tion": "Pa', 'ris"}']) send(call(piece));
      send({}, 'tool_calls');
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 42, completion_tokens: 9, total_tokens: 51 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
