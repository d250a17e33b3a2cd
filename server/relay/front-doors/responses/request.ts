import { z } from 'zod';
import type { CanonicalMessage, CanonicalRequest } from '../../canonical/types.ts';
import { isEffort } from '../../canonical/reasoning.ts';
import { refusal, type RelayError } from '../../errors.ts';
import { itemsToMessages } from '../../providers/openai/responses-bridge/items-to-messages.ts';
import type { ResponsesItem, ResponsesTool } from '../../providers/openai/responses-bridge/shapes.ts';
import {
  formatToCanonical,
  toolChoiceToCanonical,
  toolsToCanonical,
} from '../../providers/openai/responses-bridge/tools-and-format.ts';
import { choiceFor, clientTools, flattenCalls, type NamespacedName } from './client-tools.ts';

/** The Responses body as far as the gateway reads it; a native channel gets every field as it came. */
export const responsesBody = z.looseObject({
  model: z.string({ message: 'model: Field required' }).min(1, 'model: Field required'),
  input: z
    .union([z.string(), z.array(z.looseObject({}))], { message: 'input: must be a string or a list of items' })
    .optional(),
  instructions: z.string({ message: 'instructions: must be a string' }).nullish(),
  tools: z.array(z.looseObject({ type: z.string().optional() }), { message: 'tools: must be a list' }).nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  max_output_tokens: z.number().int().min(1, 'max_output_tokens: must be at least 1').nullish(),
});
export type ResponsesBody = z.infer<typeof responsesBody>;

/*
 * What the converted path (any channel that does not speak Responses) does with each field;
 * docs/conversion.md § Responses carries this table. A field not listed is not converted.
 */
/** Copied into the canonical body under the same name: OpenAI chat knows them, other providers map or drop them. */
const SAME_NAME = [
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'user',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'service_tier',
];

/** Fields whose use needs OpenAI's own servers: refused on a converted path (relayed natively otherwise). */
const NEEDS_OPENAI: Record<string, (v: unknown) => boolean> = {
  background: (v) => v === true,
  conversation: (v) => v !== null && v !== undefined,
  prompt: (v) => v !== null && v !== undefined,
  context_management: (v) => Array.isArray(v) && v.length > 0,
  top_logprobs: (v) => typeof v === 'number' && v > 0,
};

const needsOpenAI = (field: string) =>
  refusal(
    400,
    `"${field}" needs OpenAI's own Responses API; this model's channel does not speak it, so the request cannot be carried.`,
    `"${field}" 需要 OpenAI 自己的 Responses API；此模型的渠道不支持该接口，无法转发此请求。`,
    'unsupported_parameter',
  );

export interface ConvertedRequest {
  canonical: CanonicalRequest;
  /** The turn as a later previous_response_id replays it: history and this input, without `instructions`. */
  conversation: CanonicalMessage[];
  /** Names of the custom tools (their calls go back as custom_tool_call items). */
  custom: Set<string>;
  /** Flat names of namespaced tools (their calls go back with `namespace` and the tool's own name). */
  namespaced: ReadonlyMap<string, NamespacedName>;
  /** Built-in tools the client declared and the converted request leaves out (client-tools.ts). */
  dropped: string[];
  /** Why the request cannot be converted (the first reason), when it cannot. */
  refusal?: RelayError;
}

/**
 * Responses body -> canonical chat body: `instructions` first as a system message, then the
 * stored history of previous_response_id, then `input`; the client's tools as client-tools.ts
 * carries them (namespaces flattened, declared built-in tools left out). What cannot be converted
 * is collected, not thrown: a channel that speaks Responses natively can still serve the request.
 */
export function responsesToCanonical(body: ResponsesBody, history: CanonicalMessage[]): ConvertedRequest {
  const issues: RelayError[] = [];
  const refuse = (e: RelayError) => void issues.push(e);
  for (const [field, used] of Object.entries(NEEDS_OPENAI)) if (used(body[field])) refuse(needsOpenAI(field));

  const declared = clientTools((body.tools ?? []) as ResponsesTool[]);
  const input: ResponsesItem[] =
    typeof body.input === 'string'
      ? [{ type: 'message', role: 'user', content: body.input }]
      : flattenCalls((body.input ?? []) as ResponsesItem[], declared);
  const conversation = [...history, ...itemsToMessages(input, refuse)];
  const messages: CanonicalMessage[] = body.instructions
    ? [{ role: 'system', content: body.instructions }, ...conversation]
    : conversation;
  const out: CanonicalRequest = { model: body.model, messages };
  for (const k of SAME_NAME) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  if (typeof body.max_output_tokens === 'number') out.max_tokens = body.max_output_tokens;
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }

  const picked = choiceFor(body.tool_choice, declared);
  if (picked.refusal) refuse(picked.refusal);
  const { tools, custom } = toolsToCanonical(declared.tools, refuse);
  const chosen = toolChoiceToCanonical(picked.choice, tools, refuse);
  if (chosen.tools.length) out.tools = chosen.tools;
  if (chosen.choice) out.tool_choice = chosen.choice;

  const text = body.text as { format?: unknown; verbosity?: unknown } | undefined;
  const format = formatToCanonical(text?.format);
  if (format) out.response_format = format;
  if (typeof text?.verbosity === 'string') out.verbosity = text.verbosity;

  const r = body.reasoning as { effort?: unknown; summary?: unknown; generate_summary?: unknown } | null | undefined;
  if (r) {
    const summary = r.summary ?? r.generate_summary;
    const include = typeof summary === 'string' && summary !== 'none';
    if (isEffort(r.effort)) out.reasoning_effort = r.effort;
    if (isEffort(r.effort) || include) out.reasoning = { ...(isEffort(r.effort) ? { effort: r.effort } : {}), include };
  }
  return {
    canonical: out,
    conversation,
    custom,
    namespaced: declared.namespaced,
    dropped: declared.dropped,
    refusal: issues[0],
  };
}
