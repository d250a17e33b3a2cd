import { get } from 'node:http';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../../../scripts/fake-upstream/anthropic.ts';
import { startFakeGemini } from '../../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { startStrictUpstream } from '../../../../scripts/fake-upstream/strict/index.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { ascending, payer, PNG_1PX, quotaOf } from '../../../../test/provider-fixtures.ts';

/*
 * POST /v1/responses with the official openai SDK, through channels that do not speak the
 * Responses API (a chat-only OpenAI-compatible vendor, Anthropic, Gemini) and natively through
 * OpenAI's. The chat-only fake answers /v1/responses with a 404, as vLLM-style servers do.
 */

let h: RelayHarness;
let chatOnly: FakeUpstream;
let ant: FakeUpstream;
let gem: FakeUpstream;
const R = { model: 2, completion: 3 };
const models = ['chat-m', 'claude-m', 'gem-m', 'gpt-native', 'gpt-az', 'vendor-native', 'claude-cut'];

beforeAll(async () => {
  h = await startRelayHarness();
  chatOnly = await startStrictUpstream('openai-chat-only');
  ant = await startFakeAnthropic();
  gem = await startFakeGemini();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await insertChannel(h.deps, {
    type: 8,
    baseUrl: chatOnly.url,
    models: ['chat-m'],
    modelMapping: { 'chat-m': 'deepseek-chat' },
  });
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: ['claude-m'],
    modelMapping: { 'claude-m': 'claude-sonnet-4-5' },
  });
  await insertChannel(h.deps, {
    type: 24,
    baseUrl: gem.url,
    models: ['gem-m'],
    modelMapping: { 'gem-m': 'gemini-2.5-flash' },
  });
  await insertChannel(h.deps, { type: 1, baseUrl: h.fake.url, models: ['gpt-native'] });
  await insertChannel(h.deps, { type: 3, baseUrl: h.fake.url, models: ['gpt-az'], key: 'az-key' });
  await insertChannel(h.deps, {
    type: 8,
    baseUrl: h.fake.url,
    models: ['vendor-native'],
    setting: { responses_api: true },
  });
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: ['claude-cut'],
    modelMapping: { 'claude-cut': 'claude+reset-mid-stream' },
    autoBan: false,
  });
});
afterAll(async () => {
  await h.close();
  await chatOnly.close();
  await ant.close();
  await gem.close();
});

const upstreams = () => ({ 'chat-m': chatOnly, 'claude-m': ant, 'gem-m': gem }) as Record<string, FakeUpstream>;
const lastBody = (model: string) => upstreams()[model].requests.at(-1)!.body;

/** The messages (chat), turns (Anthropic) or contents (Gemini) an upstream got, as plain text per turn. */
function turnsSent(model: string): string[] {
  const b = lastBody(model);
  const text = (v: unknown): string =>
    typeof v === 'string'
      ? v
      : Array.isArray(v)
        ? v.map((p: { text?: string; thought?: boolean }) => (p.thought ? '' : (p.text ?? ''))).join('')
        : '';
  if (model === 'gem-m') return (b.contents as { parts: unknown[] }[]).map((c) => text(c.parts));
  if (model === 'claude-m') return (b.messages as { content: unknown }[]).map((m) => text(m.content));
  return (b.messages as { role: string; content: unknown }[])
    .filter((m) => m.role !== 'system')
    .map((m) => text(m.content));
}

/** The last message (chat, Anthropic) or content (Gemini) an upstream got. */
function lastTurn(model: string): unknown {
  const b = lastBody(model);
  return ((model === 'gem-m' ? b.contents : b.messages) as unknown[]).at(-1);
}

const shell = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a command',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' } },
    required: ['location'],
    additionalProperties: false,
  },
  strict: false,
};

const WORDS = 'w0 w1 w2 w3 w4 ';

describe('POST /v1/responses on channels that do not speak Responses', () => {
  for (const [label, model] of [
    ['a chat-only OpenAI-compatible', 'chat-m'],
    ['an Anthropic', 'claude-m'],
    ['a Gemini', 'gem-m'],
  ] as const) {
    it(`${label} channel: JSON text, image in, usage and billed quota to the unit`, async () => {
      const p = await payer(h);
      const r = await h.client(p.key).responses.create({
        model,
        instructions: 'Be brief.',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: PNG_1PX, detail: 'auto' },
            ],
          },
        ],
        max_output_tokens: 100,
        prompt_cache_key: 'k1',
        safety_identifier: 'u1',
        metadata: { run: '1' },
      });
      expect(r).toMatchObject({ object: 'response', status: 'completed', error: null, metadata: { run: '1' } });
      expect(r.id).toMatch(/^resp_/);
      expect(r.output_text).toBe(WORDS);
      expect(r.output).toHaveLength(1);
      expect(r.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
      expect(r.usage!.output_tokens).toBe(5);
      expect(r.usage!.input_tokens).toBeGreaterThan(0);
      expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + 5);
      expect(await p.charges()).toEqual([quotaOf({ prompt: r.usage!.input_tokens, completion: 5 }, R)]);
      if (model === 'chat-m') {
        expect(chatOnly.requests.every((q) => !q.path.includes('/responses'))).toBe(true);
        const sent = lastBody(model);
        expect(sent.max_tokens).toBe(100);
        expect(sent.messages).toEqual([
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: PNG_1PX, detail: 'auto' } },
            ],
          },
        ]);
      }
      // The instructions are Anthropic's system prompt (one block when the channel places cache breakpoints).
      if (model === 'claude-m') expect(JSON.stringify(lastBody(model).system)).toContain('Be brief.');
    });

    it(`${label} channel: the stream is the full Responses event sequence, billed from response.completed`, async () => {
      const p = await payer(h);
      const s = h.client(p.key).responses.stream({ model, input: 'hello', max_output_tokens: 100 });
      const events: { type: string; sequence_number: number }[] = [];
      let text = '';
      for await (const ev of s) {
        events.push(ev);
        if (ev.type === 'response.output_text.delta') text += ev.delta;
      }
      const final = await s.finalResponse();
      expect(text).toBe(WORDS);
      expect(final.output_text).toBe(WORDS);
      expect(final.status).toBe('completed');
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
      const types = [...new Set(events.map((e) => e.type))];
      expect(types).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(final.usage!.output_tokens).toBe(5);
      expect(await p.charges()).toEqual([quotaOf({ prompt: final.usage!.input_tokens, completion: 5 }, R)]);
      const log = (await p.logs())[0];
      expect(log.is_stream).toBe(1);
    });

    it(`${label} channel: a Codex-style tool loop (store: false, 3 turns, reasoning effort high, encrypted reasoning asked)`, async () => {
      const p = await payer(h);
      const c = h.client(p.key);
      const base = {
        model,
        instructions: 'You are a coding agent.',
        tools: [shell],
        tool_choice: 'auto' as const,
        parallel_tool_calls: false,
        reasoning: { effort: 'high' as const, summary: 'auto' as const },
        store: false,
        include: ['reasoning.encrypted_content' as const],
        prompt_cache_key: 'session-1',
      };
      const input1: OpenAI.Responses.ResponseInputItem[] = [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      ];
      const t1 = await c.responses.stream({ ...base, input: input1 }).finalResponse();
      const call = t1.output.find((i) => i.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'shell', status: 'completed' });
      expect(JSON.parse(call!.type === 'function_call' ? call!.arguments : '')).toEqual({ location: 'Paris' });
      // Reasoning effort reached the upstream in its own terms.
      const sent1 = lastBody(model);
      if (model === 'chat-m') expect(sent1.reasoning_effort).toBe('high');
      if (model === 'claude-m') expect(sent1.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
      if (model === 'gem-m')
        expect((sent1.generationConfig as { thinkingConfig?: unknown }).thinkingConfig).toEqual({
          thinkingBudget: 16384,
          includeThoughts: true,
        });
      if (model !== 'chat-m') {
        // Anthropic and Gemini reasoned: a reasoning item with its summary text, no foreign encrypted content.
        const rs = t1.output.find((i) => i.type === 'reasoning');
        expect(rs).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Let me think.' }] });
        expect(rs && 'encrypted_content' in rs ? rs.encrypted_content : undefined).toBeUndefined();
        expect(t1.usage!.output_tokens).toBeGreaterThan(0);
      }

      // Turn 2: Codex sends the whole history back, its own output items as they came, and the tool output.
      const input2 = [
        ...input1,
        ...(t1.output as OpenAI.Responses.ResponseInputItem[]),
        {
          type: 'function_call_output' as const,
          call_id: call!.type === 'function_call' ? call!.call_id : '',
          output: 'sunny',
        },
      ];
      const t2 = await c.responses.stream({ ...base, input: input2 }).finalResponse();
      expect(t2.output_text).toBe(WORDS);
      expect(JSON.stringify(lastTurn(model))).toMatch(/sunny/);
      if (model === 'claude-m') {
        // The signed thinking of turn 1 went back with its tool call (the carry-over store).
        const assistant = (lastBody(model).messages as { role: string; content: { type: string }[] }[])[1];
        expect(assistant.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
      }

      // Turn 3: a new user message after the answer (the fakes call the tool again).
      const input3 = [
        ...input2,
        ...(t2.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'message' as const, role: 'user' as const, content: 'Thanks!' },
      ];
      const t3 = await c.responses.create({ ...base, stream: false, input: input3 });
      expect(t3.output.at(-1)).toMatchObject({ type: 'function_call', name: 'shell' });
      const turns = turnsSent(model);
      expect(turns.at(-1)).toBe('Thanks!');
      expect(turns).toContain(WORDS);
      if (model === 'chat-m') {
        const msgs = lastBody(model).messages as { role: string; tool_calls?: unknown; tool_call_id?: string }[];
        expect(msgs.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool', 'assistant', 'user']);
        expect(msgs[3].tool_calls).toEqual([
          { id: 'call_fake1', type: 'function', function: { name: 'shell', arguments: '{"location":"Paris"}' } },
        ]);
        expect(msgs[4].tool_call_id).toBe('call_fake1');
      }
      const charges = await p.charges();
      expect(charges).toHaveLength(3);
      expect(charges).toEqual(
        ascending(
          [t1, t2, t3].map((t) => quotaOf({ prompt: t.usage!.input_tokens, completion: t.usage!.output_tokens }, R)),
        ),
      );
    });

    it(`${label} channel: previous_response_id continues a stored conversation; store: false keeps nothing`, async () => {
      const p = await payer(h);
      const c = h.client(p.key);
      const r1 = await c.responses.create({ model, instructions: 'Be brief.', input: 'first question' });
      const r2 = await c.responses.create({ model, input: 'second question', previous_response_id: r1.id });
      expect(r2.previous_response_id).toBe(r1.id);
      expect(r2.output_text).toBe(WORDS);
      // Instructions are not carried over (as on OpenAI); the turns are.
      expect(turnsSent(model)).toEqual(['first question', WORDS, 'second question']);
      const r3 = await c.responses.stream({ model, input: 'third', previous_response_id: r2.id }).finalResponse();
      expect(r3.output_text).toBe(WORDS);
      expect(turnsSent(model)).toEqual(['first question', WORDS, 'second question', WORDS, 'third']);

      const kept = await c.responses.create({ model, input: 'not kept', store: false });
      await expect(c.responses.create({ model, input: 'x', previous_response_id: kept.id })).rejects.toMatchObject({
        status: 400,
        code: 'previous_response_not_found',
      });
      // Another user's id is not found either.
      const other = await payer(h);
      await expect(
        h.client(other.key).responses.create({ model, input: 'x', previous_response_id: r1.id }),
      ).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found' });
      expect(await p.charges()).toHaveLength(4);
      expect(await other.charges()).toEqual([]);
    });
  }

  it('refuses a request that requires a built-in tool on a converted path with a clear 400 (English, or Chinese when asked)', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const tools = [{ type: 'web_search' as const }];
    const req = { model: 'claude-m', input: 'search the web', tools, tool_choice: 'required' as const };
    await expect(c.responses.create(req)).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_tool',
      message: expect.stringMatching(
        /tool_choice requires the built-in tool "web_search", which runs on OpenAI's servers/,
      ),
    });
    await expect(c.responses.create(req, { headers: { 'accept-language': 'zh-CN' } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/要求使用内置工具 "web_search"/),
    });
    // A built-in call in the history cannot be replayed either.
    const input = [
      { role: 'user', content: 'search the web' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
      { role: 'user', content: 'and now?' },
    ];
    const history = { model: 'claude-m', tools, input };
    await expect(c.responses.create(history as never)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/built-in tool "web_search_call"/),
    });
    expect(await p.charges()).toEqual([]);
  });

  it('emulates custom tools (Codex apply_patch) as a one-string function and answers custom_tool_call', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const tools = [{ type: 'custom' as const, name: 'apply_patch', description: 'Applies a patch' }];
    const r = await c.responses.create({ model: 'chat-m', input: 'patch it', tools });
    const sentTool = (lastBody('chat-m').tools as { function: { name: string; parameters: unknown } }[])[0];
    expect(sentTool.function.name).toBe('apply_patch');
    expect(sentTool.function.parameters).toMatchObject({
      properties: { input: { type: 'string' } },
      required: ['input'],
    });
    // The fake calls with {"location":"Paris"}: not the one-string object, so its arguments are the input.
    expect(r.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_fake1' });
    const s = await c.responses.stream({ model: 'chat-m', input: 'patch it', tools }).finalResponse();
    expect(s.output[0]).toMatchObject({ type: 'custom_tool_call', input: '{"location":"Paris"}' });
    const back = await c.responses.create({
      model: 'chat-m',
      tools,
      input: [
        { role: 'user', content: 'patch it' },
        { type: 'custom_tool_call', call_id: 'call_9', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_9', output: 'Done' },
      ],
    });
    expect(back.output_text).toBe(WORDS);
    const msgs = lastBody('chat-m').messages as { tool_calls?: { function: { arguments: string } }[] }[];
    expect(JSON.parse(msgs[1].tool_calls![0].function.arguments)).toEqual({ input: '*** Begin Patch' });
    expect(await p.charges()).toHaveLength(3);
  });

  it('a tool output with a screenshot reaches Anthropic as a tool_result with the image', async () => {
    const p = await payer(h);
    await h.client(p.key).responses.create({
      model: 'claude-m',
      input: [
        { role: 'user', content: 'What is on my screen?' },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"location":"screen"}' },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: [
            { type: 'input_text', text: 'Screenshot taken' },
            { type: 'input_image', image_url: PNG_1PX, detail: 'auto' },
          ],
        },
      ],
    });
    const messages = lastBody('claude-m').messages as {
      role: string;
      content: { type: string; content?: unknown }[];
    }[];
    const result = messages[2].content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1' });
    expect(result.content).toEqual([
      { type: 'text', text: 'Screenshot taken' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX.split(',')[1] } },
    ]);
  });

  it('a stream the upstream breaks ends with response.failed and an error the SDK raises; billed for what it carried', async () => {
    const p = await payer(h);
    const s = h.client(p.key).responses.stream({ model: 'claude-cut', input: 'hello' });
    const types: string[] = [];
    s.on('event', (ev) => types.push(ev.type));
    // The SDK raises the error event (openai 7 throws it rather than emitting it): its message is the
    // gateway's, with the request id, and it comes right after response.failed.
    await expect(s.finalResponse()).rejects.toThrow(/request id/);
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.failed');
    expect(types).not.toContain('response.completed');
    const [log] = await p.logs();
    expect(Number(log.completion_tokens)).toBeGreaterThan(0);
  });

  it('a length cut is an incomplete response (max_output_tokens), JSON and stream', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.responses.create({ model: 'claude-m', input: 'hello', max_output_tokens: 3 });
    expect(r.status).toBe('incomplete');
    expect(r.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(r.output_text).toBe('w0 w1 w2 ');
    const s = c.responses.stream({ model: 'claude-m', input: 'hello', max_output_tokens: 3 });
    const types: string[] = [];
    for await (const ev of s) types.push(ev.type);
    expect(types.at(-1)).toBe('response.incomplete');
    expect((await s.finalResponse()).incomplete_details).toEqual({ reason: 'max_output_tokens' });
    // Reserved like max_tokens, billed as produced.
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: r.usage!.input_tokens, completion: 3 }, R),
      quotaOf({ prompt: r.usage!.input_tokens, completion: 3 }, R),
    ]);
  });
});

describe('POST /v1/responses on a channel that speaks Responses (OpenAI)', () => {
  it('relays the body byte for byte (built-in tools, encrypted reasoning included) and the answer unchanged', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const body = {
      model: 'gpt-native',
      input: [
        { type: 'message' as const, role: 'user' as const, content: 'hi' },
        { type: 'reasoning' as const, id: 'rs_1', summary: [], encrypted_content: 'gAAAA-opaque' },
      ],
      tools: [{ type: 'web_search' as const }],
      store: false,
      include: ['reasoning.encrypted_content' as const],
      text: { verbosity: 'low' as const },
    };
    const r = await c.responses.create(body);
    expect(r.id).toBe('resp_fake');
    expect(r.output_text).toBe(WORDS);
    const sent = h.fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect(JSON.stringify(sent.body)).toBe(JSON.stringify(body));
    const s = c.responses.stream(body);
    const final = await s.finalResponse();
    expect(final.id).toBe('resp_fake');
    expect(h.fake.requests.at(-1)!.body).toEqual({ ...body, stream: true });
    expect(await p.charges()).toEqual(
      ascending([
        quotaOf({ prompt: r.usage!.input_tokens, completion: 5 }, R),
        quotaOf({ prompt: final.usage!.input_tokens, completion: 5 }, R),
      ]),
    );
  });

  it('Azure (deployment URL) and an OpenAI-compatible channel saying responses_api get the body as it came', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const body = { model: 'gpt-az', input: 'hi', tools: [{ type: 'web_search' as const }] };
    expect((await c.responses.create(body)).output_text).toBe(WORDS);
    expect(h.fake.requests.at(-1)!.path).toMatch(/^\/openai\/deployments\/gpt-az\/responses\?api-version=/);
    expect(h.fake.requests.at(-1)!.headers['api-key']).toBe('az-key');
    expect(h.fake.requests.at(-1)!.body).toEqual(body);
    await c.responses.create({ ...body, model: 'vendor-native' });
    expect(h.fake.requests.at(-1)!.path).toBe('/v1/responses');
    expect(h.fake.requests.at(-1)!.body).toEqual({ ...body, model: 'vendor-native' });
    expect(await p.charges()).toHaveLength(2);
  });

  it('an OpenAI previous_response_id passes through; one this gateway stored arrives as input', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    await c.responses.create({ model: 'gpt-native', input: 'hi', previous_response_id: 'resp_openai_own' });
    expect(h.fake.requests.at(-1)!.body.previous_response_id).toBe('resp_openai_own');
    const mine = await c.responses.create({ model: 'chat-m', input: 'first question' });
    await c.responses.create({ model: 'gpt-native', input: 'next', previous_response_id: mine.id });
    const sent = h.fake.requests.at(-1)!.body;
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input).toEqual([
      { type: 'message', role: 'user', content: 'first question' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: WORDS, annotations: [] }] },
      { role: 'user', content: 'next' },
    ]);
  });

  it('an endpoint a channel type does not serve answers 503 in English (not only Chinese)', async () => {
    const p = await payer(h);
    await expect(h.client(p.key).embeddings.create({ model: 'claude-m', input: 'x' })).rejects.toMatchObject({
      status: 503,
      code: 'channel_type_unsupported',
      message: expect.stringMatching(/Channel #\d+ \(type 14\) does not serve this endpoint/),
    });
  });

  it("answers Codex's WebSocket upgrade with 426 (it falls back to HTTP at once; a 404 is retried five times)", async () => {
    const p = await payer(h);
    // fetch cannot send Upgrade headers; a plain http.get is what a WebSocket client's handshake is.
    const { status, body } = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = get(`${h.baseURL}/responses`, {
        headers: {
          authorization: `Bearer ${p.key}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
    });
    expect(status).toBe(426);
    expect(JSON.parse(body)).toMatchObject({
      error: { code: 'websocket_not_supported', message: expect.stringContaining('POST /v1/responses') },
    });
  });
});
