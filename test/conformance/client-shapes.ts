/*
 * The recorded client shapes (fixtures/*.json): loading them with their placeholders filled in, and
 * judging a raw streamed answer the way the client's own parser would take it.
 *
 * Claude Code 2.1.197, Codex CLI 0.171.0 and Gemini CLI 0.61.0 are captures of the real clients
 * (issue 29), each run headless with its default settings against a recording upstream of its
 * dialect that played a short tool session (`claude -p` with ANTHROPIC_BASE_URL; `codex exec` with a
 * model provider whose wire_api is "responses"; `gemini -p` with GOOGLE_GEMINI_BASE_URL), the last
 * request of the session kept. Normalized: keys become `$KEY`, the model `$MODEL`, signatures the
 * suite's placeholders, and session/device ids, paths and timestamps fixed values; the rest (system
 * prompts, tool lists, headers) is as the client sent it. The chat app is still hand-written. To
 * refresh one, capture it the same way and keep the `$comment` saying so.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { signThinking, thoughtSignatureFor } from '../../scripts/fake-upstream/strict/signatures.ts';
import type { ClientShapeId, DoorId } from './matrix.ts';
import type { ModelRole } from './upstreams.ts';

type Json = Record<string, unknown>;

export interface ClientShape {
  /** Where the shape comes from: "Captured from the real <client>" or "Hand-recorded" (not a capture). */
  $comment: string;
  client: string;
  door: DoorId;
  method: 'POST';
  /** May hold `$MODEL` (Gemini puts the model in the path). */
  path: string;
  /** Which of the upstream's models the shape asks for (a reasoning client asks a thinking model). */
  modelRole: ModelRole;
  /** Header values may hold `$KEY`. */
  headers: Record<string, string>;
  body: Json;
}

export function loadShape(id: ClientShapeId): ClientShape {
  return JSON.parse(readFileSync(new URL(`fixtures/${id}.json`, import.meta.url), 'utf8')) as ClientShape;
}

/**
 * The request as the client would send it for `key` and `model`: `$KEY`/`$MODEL` filled in, and the
 * signatures of earlier turns (`$SIGNATURE`, `$THOUGHT_SIGNATURE`) set to what the fake upstreams issue
 * for that text or call, as the real upstream had issued them when the client recorded the turn.
 */
export function fillShape(s: ClientShape, key: string, model: string) {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return v === '$MODEL' ? model : v;
    if (Array.isArray(v)) return v.map(fill);
    if (!v || typeof v !== 'object') return v;
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)])) as Json;
    if (o.type === 'thinking' && o.signature === '$SIGNATURE') o.signature = signThinking(String(o.thinking));
    if (o.thoughtSignature === '$THOUGHT_SIGNATURE')
      o.thoughtSignature = thoughtSignatureFor(String((o.functionCall as Json | undefined)?.name));
    return o;
  };
  return {
    path: s.path.replace('$MODEL', encodeURIComponent(model)),
    headers: Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k, v.replace('$KEY', key)])),
    body: fill(s.body) as Json,
  };
}

/** Server-sent events as a client parses them: `event:` names and JSON (or `[DONE]`) data. */
export function parseSse(text: string): { event?: string; data: string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      return { event, data: data.join('\n') };
    })
    .filter((e) => e.data !== '');
}

const jsonOf = (data: string) => JSON.parse(data) as Json;

/** An Anthropic stream the SDK accumulates: message_start ... message_stop, blocks in order, tool input JSON. */
function anthropicStream(events: { event?: string; data: string }[]) {
  const ev = events.map((e) => jsonOf(e.data));
  expect(ev[0]?.type).toBe('message_start');
  expect(ev.at(-1)?.type).toBe('message_stop');
  const blocks: { type: string; json: string }[] = [];
  for (const e of ev) {
    if (e.type === 'content_block_start') {
      expect(e.index, 'blocks open in order').toBe(blocks.length);
      blocks.push({ type: String((e.content_block as Json).type), json: '' });
    } else if (e.type === 'content_block_delta') {
      const b = blocks[e.index as number];
      expect(b, `a delta for an open block (index ${String(e.index)})`).toBeDefined();
      const d = e.delta as Json;
      const expected: Record<string, string[]> = {
        text: ['text_delta', 'citations_delta'],
        tool_use: ['input_json_delta'],
        thinking: ['thinking_delta', 'signature_delta'],
      };
      expect(expected[b.type] ?? [], `${String(d.type)} in a ${b.type} block`).toContain(d.type);
      if (d.type === 'input_json_delta') b.json += String(d.partial_json);
    }
  }
  for (const b of blocks) if (b.type === 'tool_use') expect(JSON.parse(b.json || '{}')).toBeTypeOf('object');
  expect(
    blocks.some((b) => b.type === 'text' || b.type === 'tool_use'),
    'an answer or a call',
  ).toBe(true);
  expect((ev.find((e) => e.type === 'message_delta')?.delta as Json | undefined)?.stop_reason).toBeTruthy();
}

/** A Responses stream: response.created ... response.completed with output items whose call arguments parse. */
function responsesStream(events: { event?: string; data: string }[]) {
  const ev = events.map((e) => jsonOf(e.data));
  expect(ev[0]?.type).toBe('response.created');
  expect(ev.at(-1)?.type).toBe('response.completed');
  for (const e of events) if (e.event) expect(jsonOf(e.data).type).toBe(e.event);
  const output = ((ev.at(-1)!.response as Json).output ?? []) as Json[];
  expect(
    output.some((i) => i.type === 'message' || i.type === 'function_call'),
    'an answer or a call',
  ).toBe(true);
  for (const i of output) if (i.type === 'function_call') expect(JSON.parse(String(i.arguments))).toBeTypeOf('object');
}

/** Gemini's alt=sse stream: GenerateContentResponse chunks, the last with a finishReason and usage. */
function geminiStream(events: { event?: string; data: string }[]) {
  const chunks = events.map((e) => jsonOf(e.data));
  expect(chunks.length).toBeGreaterThan(0);
  const parts = chunks.flatMap((c) =>
    ((c.candidates ?? []) as Json[]).flatMap((x) => ((x.content as Json | undefined)?.parts ?? []) as Json[]),
  );
  expect(
    parts.some((p) => (typeof p.text === 'string' && !p.thought) || p.functionCall),
    'an answer or a call',
  ).toBe(true);
  const last = chunks.at(-1)!;
  expect(((last.candidates ?? []) as Json[])[0]?.finishReason).toBeTruthy();
  expect((last.usageMetadata as Json | undefined)?.totalTokenCount).toBeGreaterThan(0);
}

/** Chat chunks, `[DONE]`, and the usage chunk the client asked for. */
function chatStream(events: { event?: string; data: string }[]) {
  expect(events.at(-1)?.data).toBe('[DONE]');
  const chunks = events.slice(0, -1).map((e) => jsonOf(e.data));
  for (const c of chunks) expect(c.object).toBe('chat.completion.chunk');
  const deltas = chunks.flatMap((c) => ((c.choices ?? []) as Json[]).map((x) => x.delta as Json));
  expect(deltas.map((d) => d?.content ?? '').join(''), 'the answer').toMatch(/\S/);
  const usage = chunks.find((c) => c.usage)?.usage as Json | undefined;
  expect(usage?.prompt_tokens, 'the usage chunk asked by stream_options').toBeGreaterThan(0);
}

/** The streamed answer is what the door's client parses without complaint. */
export function expectWellFormedStream(door: DoorId, text: string) {
  const events = parseSse(text);
  if (door === 'anthropic') anthropicStream(events);
  else if (door === 'responses') responsesStream(events);
  else if (door === 'gemini') geminiStream(events);
  else chatStream(events);
}
