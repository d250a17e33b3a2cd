/*
 * The reasoning-spelling cases (matrix.ts: reasoning as `reasoning_content`, `reasoning`,
 * `reasoning_details`), for every door, on the chat-only OpenAI-compatible upstream whose models
 * answer THOUGHTS in one spelling each (upstreams.ts SPELLING_MODELS). The client must see the
 * text exactly once, in its door's way, and the answer text unchanged, JSON and streamed:
 * - OpenAI chat: a pass-through, so the vendor's own fields exactly as it sent them (OpenRouter's
 *   `reasoning` and `reasoning_details` both, which OpenRouter clients read as one);
 * - Responses: one reasoning item whose summary is the text;
 * - Anthropic: one thinking block before the text;
 * - Gemini: `thought: true` parts.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { type GenerateContentResponse, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { expect } from 'vitest';
import {
  FAKE_REASONING_ENCRYPTED,
  FAKE_REASONING_SIGNATURE,
  type ReasoningSpelling,
} from '../../scripts/fake-upstream/behaviour.ts';
import type { CaseFn, DoorCases } from './harness.ts';
import type { DoorId } from './matrix.ts';
import { ANSWER, spellingModel, THOUGHTS } from './upstreams.ts';

const QUESTION = 'Why is the sky blue?';
type Json = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const detailTexts = (v: unknown) =>
  (Array.isArray(v) ? (v as Json[]) : []).map((d) => (d.type === 'reasoning.text' ? text(d.text) : '')).join('');

/**
 * OpenAI chat: the vendor's answer as it came. `got` is the message (or the deltas joined): the
 * spelling's field holds THOUGHTS, the other spellings are absent, and the encrypted item stays in
 * `reasoning_details` only.
 */
function expectVendorSpelling(s: ReasoningSpelling, got: { fields: Json; details: Json[] }) {
  const { fields, details } = got;
  if (s === 'reasoning_content') expect(fields).toEqual({ reasoning_content: THOUGHTS });
  else if (s === 'reasoning') expect(fields).toEqual({ reasoning: THOUGHTS });
  else {
    expect(fields).toEqual({ reasoning: THOUGHTS });
    expect(detailTexts(details), 'reasoning_details text items').toBe(THOUGHTS);
    expect(details.filter((d) => d.type === 'reasoning.encrypted').map((d) => d.data)).toEqual([
      FAKE_REASONING_ENCRYPTED,
    ]);
    expect(
      details.some((d) => d.signature === FAKE_REASONING_SIGNATURE),
      'the signature kept',
    ).toBe(true);
  }
}

/** The reasoning fields present on a message or delta, strings joined across deltas by the caller. */
function reasoningFields(o: Json, into: Json, details: Json[]) {
  for (const k of ['reasoning_content', 'reasoning'])
    if (typeof o[k] === 'string') into[k] = text(into[k]) + text(o[k]);
  if (Array.isArray(o.reasoning_details)) details.push(...(o.reasoning_details as Json[]));
}

function openAIChat(s: ReasoningSpelling): CaseFn {
  return async (c) => {
    const sdk = new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });
    const body = { model: spellingModel(s), messages: [{ role: 'user' as const, content: QUESTION }] };
    const r = await sdk.chat.completions.create(body);
    expect(r.choices[0].message.content).toBe(ANSWER);
    const json = { fields: {} as Json, details: [] as Json[] };
    reasoningFields(r.choices[0].message as unknown as Json, json.fields, json.details);
    expectVendorSpelling(s, json);

    const streamed = { fields: {} as Json, details: [] as Json[] };
    let content = '';
    for await (const ch of await sdk.chat.completions.create({ ...body, stream: true })) {
      const d = ch.choices[0]?.delta as unknown as Json | undefined;
      if (!d) continue;
      content += text(d.content);
      reasoningFields(d, streamed.fields, streamed.details);
    }
    expect(content).toBe(ANSWER);
    expectVendorSpelling(s, streamed);
  };
}

function responses(s: ReasoningSpelling): CaseFn {
  return async (c) => {
    const sdk = new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });
    const body = { model: spellingModel(s), input: QUESTION, reasoning: { summary: 'auto' as const } };
    const summaries = (r: OpenAI.Responses.Response) =>
      r.output.flatMap((i) => (i.type === 'reasoning' ? [i.summary.map((x) => x.text).join('')] : []));
    const r = await sdk.responses.create(body);
    expect(r.output_text).toBe(ANSWER);
    expect(summaries(r), 'one reasoning item, its summary the text').toEqual([THOUGHTS]);

    const stream = sdk.responses.stream(body);
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(ANSWER);
    expect(summaries(final)).toEqual([THOUGHTS]);
    const deltas = events.flatMap((e) => (e.type === 'response.reasoning_summary_text.delta' ? [e.delta] : []));
    expect(deltas.join(''), 'the summary deltas').toBe(THOUGHTS);
  };
}

function anthropic(s: ReasoningSpelling): CaseFn {
  return async (c) => {
    const sdk = new Anthropic({ apiKey: c.key, baseURL: c.g.origin, maxRetries: 0 });
    const body = {
      model: spellingModel(s),
      max_tokens: 8192,
      thinking: { type: 'enabled' as const, budget_tokens: 4096 },
      messages: [{ role: 'user' as const, content: QUESTION }],
    };
    const expectBlocks = (m: Anthropic.Message) =>
      expect(
        m.content.map((b) => [b.type, b.type === 'thinking' ? b.thinking : b.type === 'text' ? b.text : '']),
      ).toEqual([
        ['thinking', THOUGHTS],
        ['text', ANSWER],
      ]);
    expectBlocks(await sdk.messages.create(body));

    const stream = sdk.messages.stream(body);
    const events: RawMessageStreamEvent[] = [];
    stream.on('streamEvent', (e) => events.push(e));
    expectBlocks(await stream.finalMessage());
    const thinking = events.flatMap((e) =>
      e.type === 'content_block_delta' && e.delta.type === 'thinking_delta' ? [e.delta.thinking] : [],
    );
    expect(thinking.join(''), 'the thinking deltas').toBe(THOUGHTS);
  };
}

function gemini(s: ReasoningSpelling): CaseFn {
  return async (c) => {
    const ai = new GoogleGenAI({ apiKey: c.key, httpOptions: { baseUrl: c.g.origin } });
    const req = {
      model: spellingModel(s),
      contents: [{ role: 'user', parts: [{ text: QUESTION }] }],
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } },
    };
    const parts = (rs: GenerateContentResponse[]) => rs.flatMap((r) => r.candidates?.[0]?.content?.parts ?? []);
    const split = (rs: GenerateContentResponse[]) => ({
      thoughts: parts(rs)
        .filter((p) => p.thought)
        .map((p) => p.text ?? '')
        .join(''),
      answer: parts(rs)
        .filter((p) => !p.thought)
        .map((p) => p.text ?? '')
        .join(''),
    });
    expect(split([await ai.models.generateContent(req)])).toEqual({ thoughts: THOUGHTS, answer: ANSWER });
    const chunks: GenerateContentResponse[] = [];
    for await (const ch of await ai.models.generateContentStream(req)) chunks.push(ch);
    expect(split(chunks)).toEqual({ thoughts: THOUGHTS, answer: ANSWER });
  };
}

const BY_DOOR: Record<DoorId, (s: ReasoningSpelling) => CaseFn> = {
  'openai-chat': openAIChat,
  responses,
  anthropic,
  gemini,
};

/** The door's three reasoning-spelling cases. */
export function spellingCases(door: DoorId): DoorCases {
  const of = BY_DOOR[door];
  return {
    'reasoning-content': of('reasoning_content'),
    'reasoning-field': of('reasoning'),
    'reasoning-details': of('details'),
  };
}
