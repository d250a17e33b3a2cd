import { refusal } from '../../errors.ts';

/*
 * Every top-level field of a canonical (OpenAI Chat Completions) body and what becomes of it on
 * an Anthropic upstream (docs/conversion.md § Anthropic). Anthropic answers 400 "Extra inputs are
 * not permitted" to any field it does not know, so nothing is forwarded blindly: a field is
 * converted by request.ts, dropped for the reason given, refused when its value asks for
 * something Anthropic cannot do, or passed as it is because it is Anthropic's own.
 */

/** Converted by toAnthropicRequest (request.ts). */
const CONVERTED = [
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'user',
  'safety_identifier',
  'response_format',
  'reasoning_effort',
  'reasoning',
  // One answer is Anthropic's only answer; n > 1 is refused below.
  'n',
] as const;

/** Dropped, each for its reason: hints and options whose effect Anthropic has no means to give. */
export const DROPPED: Record<string, string> = {
  stream_options: 'Anthropic always reports usage in a stream (message_start, message_delta)',
  prompt_cache_key:
    "a routing hint for OpenAI's prompt cache; Anthropic caches by cache_control on blocks (placed for the client when the channel's auto_cache_control is on)",
  prompt_cache_retention:
    "how long OpenAI keeps a cached prefix; Anthropic's lifetime is per breakpoint (5 minutes unless the client's own cache_control says 1h)",
  store: 'OpenAI stores completions for its dashboard; Anthropic keeps nothing to store',
  metadata: "OpenAI's tags for stored completions; Anthropic's metadata holds only user_id (taken from user)",
  service_tier: "OpenAI's tiers (flex, priority) mean nothing to Anthropic; the channel's account decides",
  verbosity: 'a length hint of GPT-5 models; Claude has no such setting',
  prediction: 'predicted output only speeds up an answer OpenAI would give anyway; the answer is the same without it',
  seed: 'best-effort determinism; Anthropic has no seed',
  frequency_penalty: 'Anthropic has no repetition penalties',
  presence_penalty: 'Anthropic has no repetition penalties',
  include_reasoning: "OpenRouter's switch for reasoning text; Anthropic returns thinking whenever it is on",
  web_search_options:
    "OpenAI's web search, which the gateway does not carry to Anthropic's server tool: left out, and the answer says so (relay/dropped-tools.ts)",
};

/**
 * Refused when the value asks for what Anthropic cannot give (else dropped as empty): the reason
 * in English and Chinese, or undefined when the value is harmless.
 */
const REFUSED: Record<string, (v: unknown) => [string, string] | undefined> = {
  n: (v) =>
    typeof v === 'number' && v > 1
      ? [
          `n=${v}: Anthropic returns one answer per request; send ${v} requests instead`,
          `n=${v}：Anthropic 每次请求只返回一个回答，请分 ${v} 次请求`,
        ]
      : undefined,
  logprobs: (v) =>
    v === true
      ? ['logprobs: Anthropic does not return token log probabilities', 'logprobs：Anthropic 不返回 token 对数概率']
      : undefined,
  top_logprobs: (v) =>
    typeof v === 'number' && v > 0
      ? [
          'top_logprobs: Anthropic does not return token log probabilities',
          'top_logprobs：Anthropic 不返回 token 对数概率',
        ]
      : undefined,
  logit_bias: (v) =>
    v && typeof v === 'object' && Object.keys(v).length > 0
      ? ['logit_bias: Anthropic has no token biasing', 'logit_bias：Anthropic 不支持 token 偏置']
      : undefined,
  modalities: (v) =>
    Array.isArray(v) && v.some((m) => m !== 'text')
      ? ['modalities: Anthropic answers in text only', 'modalities：Anthropic 只能输出文本']
      : undefined,
  audio: () => ['audio: Anthropic answers in text only', 'audio：Anthropic 只能输出文本'],
  functions: () => [
    'functions: legacy function calling is not converted for Anthropic; send tools instead',
    'functions：旧版函数调用无法转换给 Anthropic，请改用 tools',
  ],
  function_call: () => [
    'function_call: legacy function calling is not converted for Anthropic; send tool_choice instead',
    'function_call：旧版函数调用无法转换给 Anthropic，请改用 tool_choice',
  ],
};

/**
 * Anthropic's own fields, sent by OpenAI clients that know the upstream is Claude (LiteLLM-style
 * `thinking`): passed as they are.
 */
export const ANTHROPIC_NATIVE = new Set([
  'thinking',
  'stop_sequences',
  'container',
  'context_management',
  'mcp_servers',
]);

const KNOWN = new Set<string>([...CONVERTED, ...Object.keys(DROPPED), ...Object.keys(REFUSED), ...ANTHROPIC_NATIVE]);

/**
 * Refuses (400, the caller's dialect) a body an Anthropic upstream cannot serve as asked: a field
 * whose value Anthropic cannot honour, or a field nobody declared (Anthropic would refuse it too,
 * with less to go on). Null values count as absent, as OpenAI treats them.
 */
export function checkFields(body: Record<string, unknown>): void {
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (v === null || v === undefined) continue;
    const why = REFUSED[k]?.(v);
    if (why) throw refusal(400, why[0], why[1], 'unsupported_parameter');
    if (!KNOWN.has(k)) unknown.push(k);
  }
  if (unknown.length > 0) {
    const names = unknown.join(', ');
    throw refusal(
      400,
      `Unsupported parameter for an Anthropic upstream: ${names}. The Messages API has no such field, and the gateway has no conversion for it.`,
      `Anthropic 上游不支持参数：${names}（Messages API 没有该字段，网关也无法转换）`,
      'unsupported_parameter',
    );
  }
}

/** Whether a field is Anthropic's own and is copied to the upstream body as it is. */
export const isNativeField = (k: string) => ANTHROPIC_NATIVE.has(k);
