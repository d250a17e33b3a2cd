/*
 * Conformance: the Gemini door (`@google/genai`: models.generateContent, generateContentStream,
 * countTokens) against every upstream dialect. See matrix.ts and harness.ts.
 */
import {
  type Content,
  type FunctionDeclaration,
  type GenerateContentConfig,
  type GenerateContentResponse,
  GoogleGenAI,
  type Part,
  Type,
} from '@google/genai';
import { expect } from 'vitest';
import { fakeNativePrompt } from '../../scripts/fake-upstream/native-http.ts';
import {
  CALL_ARGS,
  expectBilled,
  expectToolOffered,
  expectToolResultSent,
  expectUnbilled,
  expectUpstreamError,
  FOLLOW_UP,
  FORECAST_SCHEMA,
  PNG_BASE64,
  QUESTION,
  SYSTEM_BLOCKS,
  TOOL_ERROR,
  TOOL_RESULT,
  WEATHER,
} from './checks.ts';
import { type Cell, conformanceSuite } from './harness.ts';
import { promptCacheCases } from './prompt-cache-cases.ts';
import { spellingCases } from './reasoning-spelling-cases.ts';
import {
  ANSWER,
  ANSWER_TOKENS,
  answersReasoningText,
  CANDIDATE_ANSWER,
  expectImageReached,
  expectReasoningAsked,
  expectSignaturesCarried,
  expectStructuredAsked,
  expectSystemKeptApart,
  expectToolErrorSent,
  upstreamPromptTokens,
} from './upstreams.ts';

const client = (c: Cell) => new GoogleGenAI({ apiKey: c.key, httpOptions: { baseUrl: c.g.origin } });
const SYSTEM = 'You are a weather assistant.';

/** The tool as @google/genai's typed API has users write it: OpenAPI-style uppercase types. */
const openApiTool: FunctionDeclaration = {
  name: WEATHER.name,
  description: WEATHER.description,
  parameters: {
    type: Type.OBJECT,
    properties: { location: { type: Type.STRING, description: WEATHER.parameters.properties.location.description } },
    required: ['location'],
  },
};
/** The tool as Gemini CLI sends it: a JSON Schema in `parametersJsonSchema`. */
const jsonSchemaTool: FunctionDeclaration = {
  name: WEATHER.name,
  description: WEATHER.description,
  parametersJsonSchema: WEATHER.parameters,
};
const image: Part = { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } };
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

function expectAnswer(r: GenerateContentResponse) {
  expect(r.text).toBe(ANSWER);
  expect(r.candidates?.[0].finishReason).toBe('STOP');
  expect(r.functionCalls ?? []).toEqual([]);
}

function expectCall(r: GenerateContentResponse) {
  const calls = r.functionCalls ?? [];
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ name: 'get_weather', args: CALL_ARGS });
  return calls[0];
}

/** Chunks of a streamed request, and the text and calls they carried. */
async function streamed(c: Cell, model: string, contents: Content[], config: GenerateContentConfig) {
  const chunks: GenerateContentResponse[] = [];
  for await (const ch of await client(c).models.generateContentStream({ model, contents, config })) chunks.push(ch);
  return {
    chunks,
    text: chunks.map((ch) => ch.text ?? '').join(''),
    calls: chunks.flatMap((ch) => ch.functionCalls ?? []),
    last: chunks.at(-1),
  };
}

/** The reasoning text of an answer: its `thought: true` parts. */
const thoughtsOf = (r: GenerateContentResponse | undefined) =>
  (r?.candidates?.[0]?.content?.parts ?? [])
    .filter((p) => p.thought)
    .map((p) => p.text ?? '')
    .join('');

/** call -> functionResponse -> answer -> follow-up -> call again, echoing each answer's content as returned. */
async function toolLoop(c: Cell, config: GenerateContentConfig, role: 'plain' | 'thinking') {
  const ai = client(c);
  const model = c.model(role);
  const cfg = { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [jsonSchemaTool] }], ...config };
  const contents: Content[] = [user(QUESTION)];
  const r1 = await ai.models.generateContent({ model, contents, config: cfg });
  const call = expectCall(r1);
  contents.push(r1.candidates![0].content!, {
    role: 'user',
    parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: TOOL_RESULT } } }],
  });
  const r2 = await ai.models.generateContent({ model, contents, config: cfg });
  expectAnswer(r2);
  contents.push(r2.candidates![0].content!, user(FOLLOW_UP));
  expectCall(await ai.models.generateContent({ model, contents, config: cfg }));
  const sent = c.sent();
  expect(sent).toHaveLength(3);
  expectToolResultSent(sent[1]);
  expectToolResultSent(sent[2]);
  return { sent, r1 };
}

conformanceSuite('gemini', {
  ...promptCacheCases('gemini'),
  ...spellingCases('gemini'),
  async text(c) {
    const r = await client(c).models.generateContent({
      model: c.model(),
      contents: [user('hi')],
      config: { systemInstruction: SYSTEM, maxOutputTokens: 50 },
    });
    expectAnswer(r);
  },

  async stream(c) {
    const s = await streamed(c, c.model(), [user('hi')], { systemInstruction: SYSTEM, maxOutputTokens: 50 });
    expect(s.text).toBe(ANSWER);
    expect(s.last?.candidates?.[0].finishReason).toBe('STOP');
    expect(s.last?.usageMetadata?.candidatesTokenCount).toBe(ANSWER_TOKENS);
  },

  async 'tool-call'(c) {
    const r = await client(c).models.generateContent({
      model: c.model(),
      contents: [user(QUESTION)],
      config: { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [openApiTool] }] },
    });
    expectCall(r);
    expectToolOffered(c.last());
  },

  async 'stream-tool-call'(c) {
    const s = await streamed(c, c.model(), [user(QUESTION)], {
      systemInstruction: SYSTEM,
      tools: [{ functionDeclarations: [jsonSchemaTool] }],
    });
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]).toMatchObject({ name: 'get_weather', args: CALL_ARGS });
    expectToolOffered(c.last());
  },

  async 'tool-round-trip'(c) {
    await toolLoop(c, {}, 'plain');
  },

  async 'thinking-tool-loop'(c) {
    const { sent, r1 } = await toolLoop(
      c,
      { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
      'thinking',
    );
    expectReasoningAsked(c.upstream, sent[0]);
    if (answersReasoningText(c.upstream)) expect(thoughtsOf(r1)).toMatch(/\S/);
    expectSignaturesCarried(c.upstream, sent[1]);
  },

  async 'usage-billing'(c) {
    const r = await client(c).models.generateContent({ model: c.model(), contents: [user('hi')] });
    const s = await streamed(c, c.model(), [user('hello')], {});
    const [a, b] = c.sent();
    const u1 = r.usageMetadata!;
    const u2 = s.last!.usageMetadata!;
    expect(u1).toMatchObject({
      promptTokenCount: upstreamPromptTokens(c.upstream, a),
      candidatesTokenCount: ANSWER_TOKENS,
    });
    expect(u2).toMatchObject({
      promptTokenCount: upstreamPromptTokens(c.upstream, b),
      candidatesTokenCount: ANSWER_TOKENS,
    });
    await expectBilled(c, [
      { prompt: u1.promptTokenCount!, completion: u1.candidatesTokenCount! },
      { prompt: u2.promptTokenCount!, completion: u2.candidatesTokenCount! },
    ]);
  },

  async 'image-in'(c) {
    const r = await client(c).models.generateContent({
      model: c.model(),
      contents: [{ role: 'user', parts: [{ text: 'What is in this picture?' }, image] }],
    });
    expectAnswer(r);
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'image-in-tool-result'(c) {
    const ai = client(c);
    const config = { tools: [{ functionDeclarations: [jsonSchemaTool] }] };
    const contents: Content[] = [user(QUESTION)];
    const r1 = await ai.models.generateContent({ model: c.model(), contents, config });
    const call = expectCall(r1);
    contents.push(r1.candidates![0].content!, {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: call.id,
            name: call.name,
            response: { output: TOOL_RESULT },
            // Gemini's multimodal function response: the weather map the tool returned.
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }],
          },
        },
      ],
    });
    expectAnswer(await ai.models.generateContent({ model: c.model(), contents, config }));
    expectToolResultSent(c.last());
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'tool-error'(c) {
    const ai = client(c);
    const config = { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [jsonSchemaTool] }] };
    const contents: Content[] = [user(QUESTION)];
    const r1 = await ai.models.generateContent({ model: c.model(), contents, config });
    const call = expectCall(r1);
    contents.push(r1.candidates![0].content!, {
      role: 'user',
      // Gemini's documented way to say a function failed: an `error` key instead of `output`.
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { error: TOOL_ERROR } } }],
    });
    expectAnswer(await ai.models.generateContent({ model: c.model(), contents, config }));
    expectToolErrorSent(c.upstream, c.last(), TOOL_ERROR);
  },

  async 'system-blocks'(c) {
    const r = await client(c).models.generateContent({
      model: c.model(),
      contents: [user('hi')],
      config: { systemInstruction: { parts: SYSTEM_BLOCKS.map((text) => ({ text })) }, maxOutputTokens: 50 },
    });
    expectAnswer(r);
    expectSystemKeptApart(c.upstream, c.last(), SYSTEM_BLOCKS);
  },

  async reasoning(c) {
    const config = { thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } };
    const contents = [user('Why is the sky blue?')];
    const shows = answersReasoningText(c.upstream);
    const r = await client(c).models.generateContent({ model: c.model('thinking'), contents, config });
    expectAnswer(r);
    expectReasoningAsked(c.upstream, c.last());
    if (shows) expect(thoughtsOf(r)).toMatch(/\S/);
    const s = await streamed(c, c.model('thinking'), contents, config);
    expect(s.text).toBe(ANSWER);
    expectReasoningAsked(c.upstream, c.last());
    if (shows) expect(s.chunks.map(thoughtsOf).join('')).toMatch(/\S/);
  },

  async 'structured-output'(c) {
    const r = await client(c).models.generateContent({
      model: c.model(),
      contents: [user('Forecast for Paris as JSON.')],
      config: { responseMimeType: 'application/json', responseJsonSchema: FORECAST_SCHEMA },
    });
    const { forcedTool } = expectStructuredAsked(c.upstream, c.last());
    expect(r.functionCalls ?? []).toEqual([]);
    expect(r.candidates?.[0].finishReason).toBe('STOP');
    expect(r.text).toMatch(/\S/);
    if (forcedTool) expect(JSON.parse(r.text!)).toMatchObject(CALL_ARGS);
  },

  async n(c) {
    const config = { candidateCount: 2, maxOutputTokens: 50 };
    const r = await client(c).models.generateContent({ model: c.model(), contents: [user('hi')], config });
    expect(
      (r.candidates ?? []).map((x) => [x.index ?? 0, (x.content?.parts ?? []).map((p) => p.text).join('')]),
    ).toEqual([
      [0, CANDIDATE_ANSWER],
      [1, CANDIDATE_ANSWER],
    ]);
    const s = await streamed(c, c.model(), [user('hi')], config);
    const texts: string[] = [];
    for (const ch of s.chunks)
      for (const cand of ch.candidates ?? []) {
        const i = cand.index ?? 0;
        texts[i] = (texts[i] ?? '') + (cand.content?.parts ?? []).map((p) => p.text ?? '').join('');
      }
    expect(texts).toEqual([CANDIDATE_ANSWER, CANDIDATE_ANSWER]);
    const logs = await c.payer.logs();
    expect(logs.map((l) => Number(l.completion_tokens))).toEqual([2 * ANSWER_TOKENS, 2 * ANSWER_TOKENS]);
  },

  async 'upstream-error'(c) {
    await expectUpstreamError(c, () =>
      client(c).models.generateContent({ model: c.model('error'), contents: [user('hi')] }),
    );
  },

  async 'count-tokens'(c) {
    const contents = [user(QUESTION)];
    const r = await client(c).models.countTokens({ model: c.model(), contents });
    expect(r.totalTokens).toBeGreaterThan(0);
    if (c.upstream === 'gemini') {
      const counted = c.all().filter((x) => x.path.includes(':countTokens'));
      expect(counted, "the Gemini channel's own countTokens").toHaveLength(1);
      const body = (counted[0].body.generateContentRequest ?? counted[0].body) as Record<string, unknown>;
      expect(r.totalTokens).toBe(fakeNativePrompt(body.contents, body.systemInstruction));
    }
    expect(c.sent(), 'no generation upstream').toEqual([]);
    await expectUnbilled(c);
  },
});
