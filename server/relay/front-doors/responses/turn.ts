import type { CanonicalMessage } from '../../canonical/types.ts';
import { assistantToItems, type AssistantLike } from '../../providers/openai/responses-bridge/messages-to-items.ts';
import type { ResponsesItem } from '../../providers/openai/responses-bridge/shapes.ts';
import type { Usage } from '../../providers/types.ts';
import type { DoorEnv } from '../types.ts';
import { type NamespacedName, withNamespaces } from './client-tools.ts';
import type { ResponsesBody } from './request.ts';
import { saveConversation } from './store.ts';

/** One converted Responses request, from parse to answer (the door's per-request state). */
export interface ResponsesTurn {
  id: string;
  createdAt: number;
  body: ResponsesBody;
  /** History (previous_response_id) and this input, as the next turn replays it. */
  conversation: CanonicalMessage[];
  custom: ReadonlySet<string>;
  /** Flat names of namespaced tools: their calls are answered with `namespace` and the tool's own name. */
  namespaced: ReadonlyMap<string, NamespacedName>;
  /** Where the conversation is kept (set by the door's resolve(), before the relay answers). */
  env?: DoorEnv;
}

/** The Response object around an output: the request's own settings echoed, as OpenAI does. */
export function responseObject(
  t: ResponsesTurn,
  model: string,
  o: {
    status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
    output?: ResponsesItem[];
    usage?: Record<string, unknown> | null;
    incomplete?: string;
    error?: { code: string; message: string };
  },
) {
  const b = t.body;
  const r = b.reasoning as { effort?: unknown; summary?: unknown } | null | undefined;
  return {
    id: t.id,
    object: 'response',
    created_at: t.createdAt,
    status: o.status,
    background: false,
    error: o.error ?? null,
    incomplete_details: o.incomplete ? { reason: o.incomplete } : null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    metadata: b.metadata ?? {},
    model,
    output: o.output ?? [],
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null,
    prompt_cache_key: b.prompt_cache_key ?? null,
    reasoning: { effort: r?.effort ?? null, summary: r?.summary ?? null },
    safety_identifier: b.safety_identifier ?? null,
    service_tier: 'default',
    store: b.store !== false,
    temperature: b.temperature ?? null,
    text: b.text ?? { format: { type: 'text' } },
    tool_choice: b.tool_choice ?? 'auto',
    tools: b.tools ?? [],
    top_p: b.top_p ?? null,
    truncation: b.truncation ?? 'disabled',
    usage: o.usage ?? null,
    user: b.user ?? null,
  };
}

/** Normalised usage -> Responses usage (cache writes are input too; Responses has no slot of their own). */
export function responsesUsage(u: Usage | undefined) {
  const input = (u?.promptTokens ?? 0) + (u?.cacheCreationTokens ?? 0);
  const output = u?.completionTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u?.cachedTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u?.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

/** Chat finish reason -> Responses status and incomplete reason. */
export function statusOf(finish: string | null | undefined): {
  status: 'completed' | 'incomplete';
  incomplete?: string;
} {
  if (finish === 'length') return { status: 'incomplete', incomplete: 'max_output_tokens' };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete: 'content_filter' };
  return { status: 'completed' };
}

/** The answer's output items (reasoning summary, message, tool calls), ids and status included. */
export const outputItems = (t: ResponsesTurn, m: AssistantLike): ResponsesItem[] =>
  withNamespaces(assistantToItems(m, { ids: true, reasoning: true, custom: t.custom }), t.namespaced);

/** Keeps the conversation with this answer for a later previous_response_id, unless the client said store: false. */
export function keepTurn(t: ResponsesTurn, m: AssistantLike & { thinking_blocks?: unknown }): void {
  if (t.body.store === false || !t.env) return;
  const answer = {
    role: 'assistant',
    content: m.content ?? null,
    ...(m.reasoning_content ? { reasoning_content: m.reasoning_content } : {}),
    ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}),
    ...(m.thinking_blocks ? { thinking_blocks: m.thinking_blocks } : {}),
  } as CanonicalMessage;
  saveConversation(t.env.kv, t.env.userId, t.id, [...t.conversation, answer]);
}
