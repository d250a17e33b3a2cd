import { describe, expect, it } from 'vitest';
import { type OptionKey, optionRegistry, parseOption } from '../../../../shared/options.ts';
import type { CarryStore } from '../../canonical/carry.ts';
import { noCarry } from '../../canonical/carry.ts';
import { convertGeminiRequest, geminiToOpenAI } from '../../front-doors/gemini/request.ts';
import { callIdOfSignature, gatewaySignature } from '../../front-doors/gemini/signature.ts';
import { toGeminiStream } from '../../front-doors/gemini/stream.ts';
import type { AttemptContext, StreamConverter } from '../types.ts';
import { fromGeminiResponse } from './response.ts';
import { toGeminiRequest } from './request.ts';
import { thinkingConfigOf } from './thinking.ts';

/* The conversions both ways on their own (the SDK-level tests are conversion.test.ts). */

const options = ((k: OptionKey) => {
  const r = parseOption(k, optionRegistry[k].default);
  return r.ok ? r.value : undefined;
}) as AttemptContext['options'];
const ctx = (model: string, carry: CarryStore = noCarry) =>
  ({ upstreamModel: model, stream: false, options, carry }) as unknown as AttemptContext;
const memoryCarry = (): CarryStore & { saved: Map<string, unknown> } => {
  const saved = new Map<string, unknown>();
  return {
    saved,
    remember: (id, c) => void saved.set(id, c),
    recall: async (ids) => new Map(ids.filter((i) => saved.has(i)).map((i) => [i, saved.get(i)!])),
  } as CarryStore & { saved: Map<string, unknown> };
};
const png = 'iVBORw0KGgo=';

describe('Gemini door: generateContent body -> canonical', () => {
  it('thinkingConfig, candidateCount, logprobs and sampling map by the table; thoughts and signatures are kept', () => {
    const out = geminiToOpenAI('m', false, {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        {
          role: 'model',
          parts: [
            { text: 'pondering', thought: true },
            { functionCall: { id: 'c1', name: 'f', args: { a: 1 } }, thoughtSignature: 'R29vZ2xl' },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'f', response: { error: 'boom' } } },
            { inlineData: { mimeType: 'image/png', data: png } },
            { text: 'and?' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'A' }, { text: 'B' }] },
      generationConfig: {
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: false },
        candidateCount: 2,
        responseLogprobs: true,
        logprobs: 3,
        topK: 5,
        stopSequences: ['x'],
        mediaResolution: 'MEDIA_RESOLUTION_LOW',
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
    });
    expect(out).toMatchObject({
      reasoning: { budget_tokens: 2048, include: false },
      n: 2,
      logprobs: true,
      top_logprobs: 3,
      top_k: 5,
      stop: ['x'],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    });
    expect(out.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
      },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'pondering',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' }, thought_signature: 'R29vZ2xl' },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        name: 'f',
        is_error: true,
        content: [
          { type: 'text', text: '{"error":"boom"}' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        ],
      },
      { role: 'user', content: 'and?' },
    ]);
  });

  it('thinkingLevel becomes an effort; functionResponse.parts images join the tool message', () => {
    const out = geminiToOpenAI('m', false, {
      contents: [
        { role: 'model', parts: [{ functionCall: { name: 'shot', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                name: 'shot',
                response: { output: 'ok' },
                parts: [{ inlineData: { mimeType: 'image/jpeg', data: png } }],
              },
            },
          ],
        },
      ],
      generationConfig: { thinkingConfig: { thinkingLevel: 'HIGH' } },
    });
    expect(out.reasoning).toEqual({ effort: 'high' });
    const msgs = out.messages as { tool_calls?: { id: string }[]; tool_call_id?: string; content?: unknown }[];
    expect(msgs[1].tool_call_id).toBe(msgs[0].tool_calls![0].id);
    expect(msgs[1].content).toEqual([
      { type: 'text', text: '{"output":"ok"}' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${png}` } },
    ]);
  });

  it('a gateway-made signature gives the call its id back; Google signatures are not mistaken for one', () => {
    expect(callIdOfSignature(gatewaySignature('toolu_01A'))).toBe('toolu_01A');
    expect(callIdOfSignature('R29vZ2xlU2lnbmF0dXJl')).toBeUndefined();
    const out = geminiToOpenAI('m', false, {
      contents: [
        {
          role: 'model',
          parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: gatewaySignature('toolu_01A') }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
      ],
    });
    expect(out.messages).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'toolu_01A' }] },
      { role: 'tool', tool_call_id: 'toolu_01A' },
    ]);
    expect(JSON.stringify(out)).not.toContain('thought_signature');
  });

  it('lists what cannot be converted instead of dropping it: speech, image output, Gemini-only tools, caches', () => {
    const { unconvertible } = convertGeminiRequest('m', false, {
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      generationConfig: { speechConfig: {}, responseModalities: ['AUDIO'], brandNewKnob: 1 },
      tools: [{ codeExecution: {} }, { googleSearch: {} }],
      cachedContent: 'cachedContents/abc',
    });
    expect(unconvertible.map((u) => u.field).sort()).toEqual([
      'cachedContent',
      'generationConfig.brandNewKnob',
      'generationConfig.responseModalities',
      'generationConfig.speechConfig',
      'tools[].codeExecution',
    ]);
    expect(geminiToOpenAI('m', false, { contents: [], tools: [{ googleSearch: {} }] }).web_search_options).toEqual({});
  });
});

/** A stand-in inner converter that replays canonical payloads. */
const replay = (payloads: unknown[]): StreamConverter => {
  let sent = false;
  return {
    push: () => {
      if (sent) return [];
      sent = true;
      return [...payloads.map((p) => JSON.stringify(p)), '[DONE]'];
    },
    end: () => [],
    usage: () => ({ promptTokens: 4, completionTokens: 9, cachedTokens: 0, cacheCreationTokens: 0 }),
    producedText: () => '',
  };
};

describe('Gemini door: canonical answers -> Gemini', () => {
  it('streams every choice as the candidate of its index; calls whole with id and signature; thoughts counted apart', () => {
    const s = toGeminiStream(
      replay([
        { choices: [{ index: 0, delta: { reasoning_content: 'hm' } }] },
        { choices: [{ index: 1, delta: { content: 'B' } }] },
        {
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a"' } }] },
            },
          ],
        },
        {
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: ':1}' } }] },
            },
          ],
        },
        {
          choices: [
            { index: 0, delta: {}, finish_reason: 'tool_calls' },
            { index: 1, delta: {}, finish_reason: 'length' },
          ],
        },
        { choices: [], usage: { completion_tokens_details: { reasoning_tokens: 2 } } },
      ]),
      'up',
    );
    const frames = [...s.push({ data: '' }), ...s.end()].map(
      (f) => JSON.parse(f.replace(/^data: /, '')) as Record<string, unknown>,
    );
    expect(frames[0]).toMatchObject({
      candidates: [{ index: 0, content: { parts: [{ text: 'hm', thought: true }] } }],
    });
    expect(frames[1]).toMatchObject({ candidates: [{ index: 1, content: { parts: [{ text: 'B' }] } }] });
    expect(frames.at(-1)).toEqual({
      candidates: [
        {
          index: 0,
          finishReason: 'STOP',
          content: {
            role: 'model',
            parts: [
              {
                functionCall: { id: 'call_1', name: 'f', args: { a: 1 } },
                thoughtSignature: gatewaySignature('call_1'),
              },
            ],
          },
        },
        { index: 1, finishReason: 'MAX_TOKENS', content: { role: 'model', parts: [] } },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 7, thoughtsTokenCount: 2, totalTokenCount: 13 },
      modelVersion: 'up',
    });
  });
});

describe('Gemini provider: canonical -> generateContent and back', () => {
  it('system blocks, is_error, signatures (own, remembered, placeholder) and the field table', async () => {
    const carry = memoryCarry();
    carry.remember('c2', { thought_signature: 'remembered' });
    const { body } = await toGeminiRequest(ctx('gemini-3-pro-preview', carry), {
      model: 'x',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        },
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' }, thought_signature: 'own' },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'failed badly', is_error: true },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c2', content: '{"ok":true}' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c3', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'c4', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c3', content: 'x' },
        { role: 'tool', tool_call_id: 'c4', content: 'y' },
      ],
      parallel_tool_calls: false,
      verbosity: 'low',
      logprobs: true,
      top_logprobs: 2,
      frequency_penalty: 0.1,
      reasoning_effort: 'low',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'r', schema: { type: 'object', properties: { a: { const: 1 } } } },
      },
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'A' }, { text: 'B' }] });
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents[1].parts[0].thoughtSignature).toBe('own');
    expect(contents[2].parts[0]).toEqual({ functionResponse: { name: 'f', response: { error: 'failed badly' } } });
    expect(contents[3].parts[0].thoughtSignature).toBe('remembered');
    expect(contents[5].parts.map((p) => p.thoughtSignature)).toEqual(['skip_thought_signature_validator', undefined]);
    expect(contents[6].parts.map((p) => (p.functionResponse as { name: string }).name)).toEqual(['f', 'g']);
    expect(body.generationConfig).toEqual({
      responseLogprobs: true,
      logprobs: 2,
      frequencyPenalty: 0.1,
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { a: { type: 'string', enum: ['1'] } } },
      thinkingConfig: { thinkingLevel: 'low', includeThoughts: true },
    });
    await expect(
      toGeminiRequest(ctx('gemini-2.5-flash'), { model: 'x', messages: [], logit_bias: { 42: 10 } }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('logit_bias') });
    await expect(
      toGeminiRequest(ctx('gemini-2.5-flash'), { model: 'x', messages: [], tools: [{ type: 'custom', custom: {} }] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('"custom"') });
  });

  it('thinking config per model family: budgets clamped, Gemini 3 levels, none where models cannot think', () => {
    expect(thinkingConfigOf('gemini-2.5-pro', { effort: 'none' })).toEqual({
      thinkingBudget: 128,
      includeThoughts: true,
    });
    expect(thinkingConfigOf('gemini-2.5-flash', { effort: 'xhigh' })).toEqual({
      thinkingBudget: 24576,
      includeThoughts: true,
    });
    expect(thinkingConfigOf('gemini-2.5-flash-lite', { budget_tokens: -1, include: false })).toEqual({
      thinkingBudget: -1,
    });
    expect(thinkingConfigOf('gemini-3-pro-preview', { effort: 'minimal' })).toEqual({
      thinkingLevel: 'low',
      includeThoughts: true,
    });
    expect(thinkingConfigOf('gemini-3-pro-preview', { budget_tokens: 20000 })).toEqual({
      thinkingLevel: 'high',
      includeThoughts: true,
    });
    expect(thinkingConfigOf('gemini-2.0-flash', { effort: 'high' })).toBeUndefined();
  });

  it('answers: every candidate a choice; signatures remembered and on the call; thoughts as reasoning tokens', () => {
    const carry = memoryCarry();
    const { body } = fromGeminiResponse(
      JSON.stringify({
        candidates: [
          {
            index: 0,
            content: {
              parts: [
                { text: 'hm', thought: true },
                { functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig' },
              ],
            },
            finishReason: 'STOP',
          },
          {
            index: 1,
            content: { parts: [{ text: 'b' }] },
            finishReason: 'STOP',
            logprobsResult: {
              chosenCandidates: [{ token: 'b', logProbability: -0.1 }],
              topCandidates: [{ candidates: [] }],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, thoughtsTokenCount: 5 },
      }),
      'm',
      carry,
    );
    const o = JSON.parse(body) as {
      choices: { message: { tool_calls?: { id: string; thought_signature?: string }[] }; logprobs?: unknown }[];
      usage: unknown;
    };
    const call = o.choices[0].message.tool_calls![0];
    expect(call.thought_signature).toBe('sig');
    expect(carry.saved.get(call.id)).toEqual({ thought_signature: 'sig' });
    expect(o.choices[1].logprobs).toEqual({
      content: [{ token: 'b', logprob: -0.1, bytes: null, top_logprobs: [] }],
      refusal: null,
    });
    expect(o.usage).toMatchObject({ completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 5 } });
  });
});
