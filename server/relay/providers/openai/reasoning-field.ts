import type { CarryStore } from '../../canonical/carry.ts';
import {
  createDetailsMerger,
  detailsOf,
  type Reasoned,
  toInternalReasoning,
} from '../../canonical/reasoning-spellings.ts';
import type { CanonicalMessage } from '../../canonical/types.ts';
import type { AttemptContext } from '../types.ts';
import { policyOf } from './request.ts';

/*
 * Reasoning of OpenAI-compatible answers for clients of another dialect (docs/conversion.md
 * § Reasoning). The Anthropic, Gemini and Responses doors read the internal form's
 * `reasoning_content`, so whichever spelling the vendor used (`reasoning`, `reasoning_details`) is
 * read into it (canonical/reasoning-spellings.ts). What `reasoning_details` held beyond the text
 * (signatures, encrypted items) cannot reach such a client, so it is remembered under the turn's
 * tool calls and put back on them when the client returns them (canonical/carry.ts): OpenRouter
 * continues the model's reasoning from it. OpenAI chat clients get the vendor's answer as it came.
 */

interface Choice {
  index?: number;
  message?: Reasoned & { tool_calls?: { id?: unknown }[] };
}

const callIds = (calls: { id?: unknown }[] | undefined): string[] =>
  (calls ?? []).map((c) => c.id).filter((id): id is string => typeof id === 'string' && id !== '');

/** Remembers a turn's `reasoning_details` under each of its tool calls. */
function rememberDetails(carry: CarryStore, ids: string[], details: unknown) {
  const items = detailsOf(details);
  if (items) for (const id of ids) carry.remember(id, { reasoning_details: items });
}

/** A JSON answer's choices, in place: true when any changed. */
export function readAnswerReasoning(ctx: AttemptContext, choices: Choice[]): boolean {
  let changed = false;
  for (const c of choices) {
    if (!c?.message) continue;
    const r = toInternalReasoning(c.message);
    if (!r.changed) continue;
    changed = true;
    rememberDetails(ctx.carry, callIds(c.message.tool_calls), r.details);
  }
  return changed;
}

interface StreamDelta extends Reasoned {
  tool_calls?: { id?: unknown }[];
}

/**
 * The same for a stream, one instance per stream: each delta is rewritten in place; each choice's
 * `reasoning_details` fragments are merged and remembered under its tool calls when it finishes.
 */
export function createStreamReasoningReader(carry: CarryStore) {
  const choices = new Map<number, { merger: ReturnType<typeof createDetailsMerger>; ids: string[] }>();
  const of = (i: number) => {
    let c = choices.get(i);
    if (!c) choices.set(i, (c = { merger: createDetailsMerger(), ids: [] }));
    return c;
  };
  const finish = (i: number) => {
    const c = choices.get(i);
    if (c?.ids.length) rememberDetails(carry, c.ids, c.merger.items());
    choices.delete(i);
  };
  return {
    /** Rewrites the delta; true when it changed. */
    delta(index: number, d: StreamDelta): boolean {
      const ids = callIds(d.tool_calls);
      const details = d.reasoning_details;
      if (ids.length === 0 && details === undefined && d.reasoning === undefined) return false;
      const c = of(index);
      c.ids.push(...ids);
      c.merger.add(details);
      return toInternalReasoning(d).changed;
    },
    finish,
    /** The stream ended: choices that never sent a finish reason are done too. */
    end() {
      for (const i of [...choices.keys()]) finish(i);
    },
  };
}

type Message = CanonicalMessage;
type Assistant = Extract<Message, { role: 'assistant' }>;

/** The tool-calling assistant turns of the current loop (after the last user message) that lack details. */
function wanting(messages: Message[]): Assistant[] {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  return messages
    .slice(lastUser + 1)
    .filter((m): m is Assistant => m.role === 'assistant' && !!m.tool_calls?.length && !m.reasoning_details);
}

/**
 * Whether this chat request should look up carried `reasoning_details`: a client of another
 * dialect (an OpenAI client sends back what it got), an upstream that takes unknown message
 * fields, and tool-calling turns in the current loop.
 */
export function wantsCarriedDetails(ctx: AttemptContext, body: Record<string, unknown>): boolean {
  if (ctx.mode !== 'chat' || ctx.clientProtocol === undefined || !Array.isArray(body.messages)) return false;
  return wanting(body.messages as Message[]).length > 0 && !policyOf(ctx).strict;
}

/** The body with the carried `reasoning_details` put back on their turns (the same body when none was). */
export async function withCarriedDetails(
  ctx: AttemptContext,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const messages = body.messages as Message[];
  const turns = new Set<Message>(wanting(messages));
  const ids = [...turns].flatMap((m) => callIds((m as Assistant).tool_calls));
  const carried = await ctx.carry.recall(ids);
  if (carried.size === 0) return body;
  const out = messages.map((m) => {
    if (!turns.has(m)) return m;
    const a = m as Assistant;
    const id = callIds(a.tool_calls).find((x) => carried.get(x)?.reasoning_details);
    const details = id === undefined ? undefined : detailsOf(carried.get(id)?.reasoning_details);
    return details ? { ...a, reasoning_details: details } : a;
  });
  return { ...body, messages: out };
}
