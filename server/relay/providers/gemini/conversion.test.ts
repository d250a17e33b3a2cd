import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { validateGemini } from '../../../../scripts/fake-upstream/strict/gemini.ts';
import { thoughtSignatureFor } from '../../../../scripts/fake-upstream/strict/signatures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, PNG_1PX, quotaOf } from '../../../../test/provider-fixtures.ts';

/*
 * Gemini both ways through the official SDKs (issue #20): OpenAI and Anthropic clients on a strict
 * fake Gemini (it refuses what the real API refuses: unknown fields, JSON Schema keywords, a Gemini 3
 * call without its thought signature), and @google/genai clients on other upstreams.
 */

let h: RelayHarness;
let gem: FakeUpstream;
const R = { model: 1, completion: 2 };
const models = ['g3', 'g3-flash', 'g25', 'gpt-x', 'gpt-tools'];

beforeAll(async () => {
  h = await startRelayHarness();
  gem = await startFakeGemini(0, { validate: validateGemini });
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await insertChannel(h.deps, {
    type: 24,
    baseUrl: gem.url,
    models: ['g3', 'g3-flash', 'g25'],
    modelMapping: { g3: 'gemini-3-pro-preview+calls-2', 'g3-flash': 'gemini-3-flash-preview', g25: 'gemini-2.5-flash' },
  });
  await insertChannel(h.deps, {
    type: 1,
    baseUrl: h.fake.url,
    models: ['gpt-x', 'gpt-tools'],
    modelMapping: { 'gpt-tools': 'gpt+call-tools' },
  });
});
afterAll(async () => {
  await h.close();
  await gem.close();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather at a place',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};
type Contents = { role: string; parts: Record<string, unknown>[] }[];
const sentContents = () => gem.requests.at(-1)!.body.contents as Contents;
const signature = thoughtSignatureFor('get_weather');
const anthropic = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
const genai = (key: string) =>
  new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });

describe('OpenAI and Anthropic clients on a Gemini thinking upstream', () => {
  it('an OpenAI chat client runs a 3-turn tool loop on Gemini 3: each call goes back with its signature', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather in Paris, twice?' }];
    const r1 = await c.chat.completions.create({ model: 'g3', messages, tools: [weather] });
    const call1 = r1.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    // The signature also rides on the call (a client echoing the whole message carries it itself).
    expect(call1).toMatchObject({ function: { name: 'get_weather' }, thought_signature: signature });
    // This client echoes only what OpenAI defines: the gateway puts the signature back from its store.
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: call1.id, type: 'function', function: call1.function }] },
      { role: 'tool', tool_call_id: call1.id, content: '{"sky":"sunny"}' },
    );
    // Turn 2 streams: the streamed call's signature is remembered as well.
    const s = await c.chat.completions.create({ model: 'g3', messages, tools: [weather], stream: true });
    let id2 = '';
    let args2 = '';
    for await (const ch of s)
      for (const t of ch.choices[0]?.delta?.tool_calls ?? []) {
        id2 ||= t.id ?? '';
        args2 += t.function?.arguments ?? '';
      }
    const turn2 = sentContents();
    expect(turn2.map((t) => t.role)).toEqual(['user', 'model', 'user']);
    expect(turn2[1].parts[0]).toEqual({
      functionCall: { name: 'get_weather', args: { location: 'Paris' } },
      thoughtSignature: signature,
    });
    expect(id2).not.toBe(call1.id);
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: id2, type: 'function', function: { name: 'get_weather', arguments: args2 } }],
      },
      { role: 'tool', tool_call_id: id2, content: '{"sky":"rain"}' },
    );
    const r3 = await c.chat.completions.create({ model: 'g3', messages, tools: [weather] });
    expect(r3.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const turn3 = sentContents();
    expect(turn3.map((t) => t.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect([turn3[1].parts[0].thoughtSignature, turn3[3].parts[0].thoughtSignature]).toEqual([signature, signature]);
    expect(turn3[4].parts).toEqual([{ functionResponse: { name: 'get_weather', response: { sky: 'rain' } } }]);
    expect(await p.charges()).toHaveLength(3);
  });

  it('an Anthropic client (Claude Code style) runs a 3-turn tool loop on Gemini 3 with the signatures', async () => {
    const p = await payer(h);
    const a = anthropic(p.key);
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object' as const,
          additionalProperties: false,
          properties: { location: { type: 'string', description: 'City' }, source: { type: 'string', format: 'uri' } },
          required: ['location'],
        },
      },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'weather, twice?' }];
    for (const turn of [1, 2]) {
      const m = await a.messages.create({ model: 'g3', max_tokens: 500, messages, tools });
      expect(m.stop_reason).toBe('tool_use');
      const use = m.content.find((b) => b.type === 'tool_use')!;
      messages.push(
        { role: 'assistant', content: m.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `sunny ${turn}` }] },
      );
    }
    // Claude Code's schema reached Gemini in the subset it accepts (the strict fake refuses the rest).
    const decl = (gem.requests.at(-1)!.body.tools as { functionDeclarations: object[] }[])[0].functionDeclarations[0];
    expect(decl).toEqual({
      name: 'get_weather',
      description: 'Weather',
      parameters: {
        type: 'object',
        properties: { location: { type: 'string', description: 'City' }, source: { type: 'string' } },
        required: ['location'],
      },
    });
    const last = await a.messages.create({ model: 'g3', max_tokens: 500, messages, tools });
    expect(last.content).toEqual([expect.objectContaining({ type: 'text', text: 'w0 w1 w2 w3 w4 ' })]);
    const turn3 = sentContents();
    const calls = turn3.filter((t) => t.role === 'model').map((t) => t.parts.find((x) => x.functionCall));
    expect(calls.map((x) => x?.thoughtSignature)).toEqual([signature, signature]);
    expect(turn3[2].parts[0]).toEqual({ functionResponse: { name: 'get_weather', response: { content: 'sunny 1' } } });
  });

  it('reasoning_effort becomes thinkingConfig: a budget on 2.5, a level on 3; thoughts come back with their tokens', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.chat.completions.create({
      model: 'g25',
      messages: [{ role: 'user', content: 'think' }],
      reasoning_effort: 'low',
    });
    expect(gem.requests.at(-1)!.body.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 4096, includeThoughts: true },
    });
    expect(r.choices[0].message).toMatchObject({ reasoning_content: 'Let me think.', content: 'w0 w1 w2 w3 w4 ' });
    expect(r.usage).toMatchObject({ completion_tokens: 8, completion_tokens_details: { reasoning_tokens: 3 } });
    await c.chat.completions.create({
      model: 'g3-flash',
      messages: [{ role: 'user', content: 'think' }],
      reasoning_effort: 'medium',
    });
    expect(gem.requests.at(-1)!.body.generationConfig).toEqual({
      thinkingConfig: { thinkingLevel: 'high', includeThoughts: true },
    });
    await c.chat.completions.create({
      model: 'g25',
      messages: [{ role: 'user', content: 'quick' }],
      reasoning_effort: 'none',
    });
    expect(gem.requests.at(-1)!.body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    // Thoughts are output tokens: billed as completion.
    expect((await p.charges())[2]).toBe(quotaOf({ prompt: r.usage!.prompt_tokens, completion: 8 }, R));
  });

  it('n=2 streamed from Gemini reaches an OpenAI client as two choices, billed for both', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'g25',
      messages: [{ role: 'user', content: 'two answers' }],
      n: 2,
      stream: true,
      stream_options: { include_usage: true },
    });
    const text: Record<number, string> = {};
    const finish: Record<number, string> = {};
    let usage;
    for await (const ch of s) {
      usage ??= ch.usage ?? undefined;
      for (const choice of ch.choices) {
        text[choice.index] = (text[choice.index] ?? '') + (choice.delta.content ?? '');
        if (choice.finish_reason) finish[choice.index] = choice.finish_reason;
      }
    }
    expect(gem.requests.at(-1)!.body.generationConfig).toEqual({ candidateCount: 2 });
    expect(text).toEqual({ 0: 'w0 w1 w2 w3 w4 ', 1: 'W0 W1 W2 W3 W4 ' });
    expect(finish).toEqual({ 0: 'stop', 1: 'stop' });
    expect(await p.charges()).toEqual([quotaOf({ prompt: usage!.prompt_tokens, completion: 10 }, R)]);
  });

  it('a tool result with an image reaches Gemini as functionResponse plus inlineData in the same turn', async () => {
    const p = await payer(h);
    await h.client(p.key).chat.completions.create({
      model: 'g25',
      tools: [weather],
      messages: [
        { role: 'user', content: 'screenshot?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_s',
          content: [
            { type: 'text', text: 'the screen' },
            { type: 'image_url', image_url: { url: PNG_1PX } },
          ] as unknown as string,
        },
      ],
    });
    expect(sentContents()[2].parts).toEqual([
      { functionResponse: { name: 'get_weather', response: { content: 'the screen' } } },
      { inlineData: { mimeType: 'image/png', data: PNG_1PX.split(',')[1] } },
    ]);
  });

  it('hints Gemini has no use for are dropped; an unknown field is refused with a 400 naming it (in Chinese if asked)', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    await c.chat.completions.create({
      model: 'g25',
      messages: [{ role: 'user', content: 'hi' }],
      store: false,
      metadata: { app: 'x' },
      prompt_cache_key: 'k',
      safety_identifier: 'u1',
      user: 'u1',
      seed: 7,
      presence_penalty: 0.5,
    });
    const sent = gem.requests.at(-1)!.body;
    expect(Object.keys(sent).sort()).toEqual(['contents', 'generationConfig', 'safetySettings']);
    expect(sent.generationConfig).toEqual({ seed: 7, presencePenalty: 0.5 });
    const before = gem.requests.length;
    const body = { model: 'g25', messages: [{ role: 'user' as const, content: 'hi' }], enable_turbo: true };
    await expect(c.chat.completions.create(body)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('"enable_turbo" cannot be sent to a Gemini upstream'),
    });
    await expect(
      c.chat.completions.create(body, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('字段 "enable_turbo"') });
    expect(gem.requests.length).toBe(before);
    expect(await p.charges()).toHaveLength(1);
  });
});

describe('@google/genai clients on other upstreams', () => {
  it('OpenAPI-style schemas (uppercase, nullable) and parametersJsonSchema reach OpenAI as JSON Schema', async () => {
    const ai = genai((await payer(h)).key);
    await ai.models.generateContent({
      model: 'gpt-x',
      contents: 'find',
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'search',
                description: 'Search',
                parameters: {
                  type: Type.OBJECT,
                  properties: {
                    q: { type: Type.STRING, description: 'query' },
                    limit: { type: Type.INTEGER, nullable: true, format: 'int32' },
                    tags: { type: Type.ARRAY, items: { type: Type.STRING }, maxItems: '3' },
                  },
                  required: ['q'],
                },
              },
              {
                name: 'fetch',
                parametersJsonSchema: {
                  type: 'object',
                  properties: { url: { type: 'string', format: 'uri' } },
                  required: ['url'],
                  additionalProperties: false,
                },
              },
            ],
          },
        ],
      },
    });
    const tools = h.fake.requests.at(-1)!.body.tools as { function: { name: string; parameters: unknown } }[];
    expect(tools.map((t) => [t.function.name, t.function.parameters])).toEqual([
      [
        'search',
        {
          type: 'object',
          properties: {
            q: { type: 'string', description: 'query' },
            limit: { type: ['integer', 'null'] },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
          },
          required: ['q'],
        },
      ],
      [
        'fetch',
        {
          type: 'object',
          properties: { url: { type: 'string', format: 'uri' } },
          required: ['url'],
          additionalProperties: false,
        },
      ],
    ]);
  });

  it('function calls from OpenAI come with their id and a gateway signature; the id comes back from the signature', async () => {
    const ai = genai((await payer(h)).key);
    const tools = [
      { functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weather.function.parameters }] },
    ];
    const r = await ai.models.generateContent({ model: 'gpt-tools', contents: 'weather?', config: { tools } });
    const part = r.candidates![0].content!.parts!.find((x) => x.functionCall)!;
    expect(part.functionCall).toEqual({ id: 'call_fake1', name: 'get_weather', args: { location: 'Paris' } });
    expect(part.thoughtSignature).toEqual(expect.any(String));
    // A client that keeps the signature but not the id (Gemini CLI may remake ids) still names the call.
    await ai.models.generateContent({
      model: 'gpt-tools',
      config: { tools },
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { name: 'get_weather', args: { location: 'Paris' } },
              thoughtSignature: part.thoughtSignature,
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'get_weather-123-cli', name: 'get_weather', response: { output: 'sunny' } } },
          ],
        },
      ],
    });
    const msgs = h.fake.requests.at(-1)!.body.messages as {
      role: string;
      tool_calls?: { id: string }[];
      tool_call_id?: string;
    }[];
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect([msgs[1].tool_calls![0].id, msgs[2].tool_call_id]).toEqual(['call_fake1', 'call_fake1']);
  });

  it('a field no other upstream can take is refused on them in Gemini shape, and relayed as is to Gemini', async () => {
    const p = await payer(h);
    const post = (model: string) =>
      fetch(`${h.baseURL.replace(/\/v1$/, '')}/v1beta/models/${model}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': p.key },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
          generationConfig: { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } },
        }),
      });
    const refused = await post('gpt-x');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringContaining('generationConfig.speechConfig'),
      },
    });
    expect((await post('g25')).status).toBe(200);
    expect(await p.charges()).toHaveLength(1);
  });
});
