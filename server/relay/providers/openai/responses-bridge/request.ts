import type { CanonicalMessage, CanonicalReasoning, CanonicalTool } from '../../../canonical/types.ts';
import { refusal } from '../../../errors.ts';
import { reasoningModelOf } from '../reasoning-models.ts';
import { messagesToItems } from './messages-to-items.ts';
import { formatToResponses, toolChoiceToResponses, toolsToResponses } from './tools-and-format.ts';

/*
 * A chat body (already fitted to the upstream model by the OpenAI adapter's chat rendering) ->
 * a Responses request, for a model that only answers on /v1/responses. The table below is
 * docs/conversion.md § Responses, "chat clients on a Responses-only model".
 */

/** Chat fields the Responses API takes under the same name. */
const SAME_NAME = [
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'user',
  'metadata',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'service_tier',
];

/** Chat fields with no Responses counterpart that change nothing the client reads back: dropped. */
const DROPPED = new Set([
  'stream_options', // Responses streams always end with their usage.
  'seed', // a best-effort determinism hint.
  'frequency_penalty', // sampling penalties: Responses has none (reasoning models refuse them anyway).
  'presence_penalty',
  'logit_bias',
  'top_k',
  'prediction', // a latency hint (predicted output).
  'reasoning', // the internal form's: read by the caller before the chat rendering (`asked`).
]);

/** Read by the conversion itself. */
const CONVERTED = new Set([
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'tools',
  'tool_choice',
  'response_format',
  'verbosity',
  'reasoning_effort',
  'store',
  'n',
  ...SAME_NAME,
]);

const cannot = (field: string, why: string, zh: string) =>
  refusal(
    400,
    `"${field}" cannot be sent to this model: it answers only on OpenAI's Responses API, which ${why}.`,
    `"${field}" 无法发送给此模型：该模型只支持 OpenAI 的 Responses API，而该接口${zh}。`,
    'unsupported_parameter',
  );

/** Throws the refusal for a field the Responses API cannot carry. */
function refuseField(k: string, v: unknown): void {
  if (v === undefined || v === null || v === false) return;
  if (k === 'n' && v === 1) return;
  if (k === 'n') throw cannot('n', 'returns one answer per request', '每次请求只返回一个回答');
  if (k === 'stop') throw cannot('stop', 'has no stop sequences', '不支持停止序列');
  if (k === 'logprobs' || k === 'top_logprobs')
    throw cannot(k, 'reports log probabilities in another shape', '以另一种格式返回对数概率');
  if (k === 'functions' || k === 'function_call')
    throw cannot(
      k,
      'takes `tools` only (the legacy functions are not carried)',
      '只接受 `tools`（不转换旧版 functions）',
    );
  if (k === 'modalities' || k === 'audio') throw cannot(k, 'does not answer with audio', '不返回音频');
  throw cannot(k, 'does not know this field', '不认识此字段');
}

/**
 * The Responses body for a chat body (model set by the adapter). `asked` is the client's reasoning
 * as the internal form held it (the chat rendering keeps only an effort); `upstreamModel` the model
 * the channel asks for (its reasoning-model rules).
 */
export function chatToResponsesRequest(
  body: Record<string, unknown>,
  asked: CanonicalReasoning | undefined,
  upstreamModel: string,
): Record<string, unknown> {
  for (const [k, v] of Object.entries(body)) if (!CONVERTED.has(k) && !DROPPED.has(k)) refuseField(k, v);
  if (typeof body.n === 'number' && body.n > 1) refuseField('n', body.n);

  const out: Record<string, unknown> = {
    model: body.model,
    input: messagesToItems((body.messages ?? []) as CanonicalMessage[]),
    // A chat client expects nothing kept upstream (and OpenAI would keep it 30 days): unless it asked.
    store: body.store === true,
  };
  if (body.stream === true) out.stream = true;
  const effort = typeof body.reasoning_effort === 'string' ? body.reasoning_effort : undefined;
  const rm = reasoningModelOf(upstreamModel);
  // Chat takes a reasoning model's default sampling (temperature 1, which Gemini CLI sends); Responses refuses
  // the field itself ("not supported with this model") unless reasoning is off (GPT-5.1 and later's `none`).
  const noSampling = rm !== undefined && (effort ?? rm.efforts[0]) !== 'none';
  for (const k of SAME_NAME) {
    if (body[k] === undefined || body[k] === null) continue;
    if (noSampling && (k === 'temperature' || k === 'top_p')) continue;
    out[k] = body[k];
  }
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (typeof limit === 'number') out.max_output_tokens = limit;

  const tools = (body.tools ?? []) as CanonicalTool[];
  if (tools.length) out.tools = toolsToResponses(tools);
  const choice = toolChoiceToResponses(body.tool_choice);
  if (choice !== undefined) out.tool_choice = choice;

  const format = formatToResponses(body.response_format);
  const text = {
    ...(format ? { format } : {}),
    ...(typeof body.verbosity === 'string' ? { verbosity: body.verbosity } : {}),
  };
  if (Object.keys(text).length) out.text = text;

  // A summary only when asked: OpenAI refuses summaries to organisations it has not verified.
  const summary = asked?.include === true;
  if (effort || summary) out.reasoning = { ...(effort ? { effort } : {}), ...(summary ? { summary: 'auto' } : {}) };
  return out;
}
