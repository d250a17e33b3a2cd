import { refusal } from '../../errors.ts';

/*
 * What the Gemini provider does with each top-level field of the internal form (an OpenAI chat body,
 * docs/conversion.md § Gemini). Gemini refuses unknown fields, so nothing outside this table reaches
 * it: a field is converted (request.ts), dropped for the stated reason, or refused with a 400 that
 * names it. Gemini's own fields (GEMINI_NATIVE), which some OpenAI clients add for a Gemini channel,
 * go through as they are.
 */

type Rule = { converted: string } | { dropped: string } | { refused: string; zh: string };

export const OPENAI_FIELDS: Record<string, Rule> = {
  model: { converted: 'the URL (models/{model}); a -thinking suffix drives thinkingConfig' },
  messages: { converted: 'systemInstruction and contents' },
  stream: { converted: ':streamGenerateContent?alt=sse' },
  stream_options: { converted: 'usage is always read; the usage chunk is sent when include_usage asks' },
  max_tokens: { converted: 'generationConfig.maxOutputTokens' },
  max_completion_tokens: { converted: 'generationConfig.maxOutputTokens' },
  temperature: { converted: 'generationConfig.temperature' },
  top_p: { converted: 'generationConfig.topP' },
  top_k: { converted: 'generationConfig.topK' },
  stop: { converted: 'generationConfig.stopSequences' },
  n: { converted: 'generationConfig.candidateCount' },
  seed: { converted: 'generationConfig.seed' },
  presence_penalty: { converted: 'generationConfig.presencePenalty' },
  frequency_penalty: { converted: 'generationConfig.frequencyPenalty' },
  logprobs: { converted: 'generationConfig.responseLogprobs' },
  top_logprobs: { converted: 'generationConfig.logprobs' },
  response_format: { converted: 'generationConfig.responseMimeType and responseSchema' },
  tools: { converted: 'tools[].functionDeclarations (Gemini tool objects such as googleSearch kept)' },
  tool_choice: { converted: 'toolConfig.functionCallingConfig' },
  functions: { converted: 'tools[].functionDeclarations (legacy OpenAI functions)' },
  function_call: { converted: 'toolConfig.functionCallingConfig (legacy OpenAI functions)' },
  reasoning_effort: { converted: 'generationConfig.thinkingConfig' },
  reasoning: { converted: 'generationConfig.thinkingConfig' },
  web_search_options: { converted: 'a googleSearch tool' },
  modalities: { converted: 'text only; audio output is refused' },
  logit_bias: { converted: 'an empty map is dropped; token biases are refused' },
  parallel_tool_calls: { dropped: 'Gemini has no switch for it; the model decides how many calls to make' },
  user: { dropped: 'an end-user id for abuse tracking; Gemini has no such field' },
  store: { dropped: "OpenAI's stored completions; nothing is stored by Gemini" },
  metadata: { dropped: "tags for OpenAI's stored completions" },
  service_tier: { dropped: "OpenAI's processing tier; a Gemini key has its own" },
  prompt_cache_key: { dropped: "OpenAI's cache routing hint; Gemini caches implicitly" },
  prompt_cache_retention: { dropped: "how long OpenAI keeps a cached prefix; Gemini's implicit cache has no setting" },
  safety_identifier: { dropped: 'an end-user id for abuse tracking; Gemini has no such field' },
  verbosity: { dropped: "GPT-5's answer-length hint; Gemini has none" },
  prediction: { dropped: 'predicted output only speeds OpenAI up; the answer is the same without it' },
  audio: {
    refused: 'Gemini chat models do not answer with audio through this API',
    zh: 'Gemini 对话模型不能通过此接口输出音频',
  },
};

/** Gemini's own request fields: an OpenAI body may carry them for a Gemini channel (merged or passed on). */
export const GEMINI_NATIVE = new Set(['generationConfig', 'safetySettings', 'cachedContent', 'toolConfig']);

/**
 * Refuses what Gemini cannot take: a field marked refused, an unknown field (Gemini would refuse it
 * with a less helpful message), token biases, audio output. Null fields count as absent (OpenAI
 * SDKs send some as null).
 */
export function checkOpenAIFields(body: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(body)) {
    if (v === null || v === undefined || GEMINI_NATIVE.has(k)) continue;
    const rule = OPENAI_FIELDS[k];
    if (!rule)
      throw refusal(
        400,
        `The field "${k}" cannot be sent to a Gemini upstream: Gemini refuses unknown fields and the gateway has no conversion for it.`,
        `字段 "${k}" 无法发送到 Gemini 上游：Gemini 拒绝未知字段，网关也没有对应的转换。`,
        'unsupported_field',
      );
    if ('refused' in rule) throw refused(k, rule.refused, rule.zh);
  }
  if (body.logit_bias && typeof body.logit_bias === 'object' && Object.keys(body.logit_bias).length > 0)
    throw refused('logit_bias', 'Gemini has no token biases', 'Gemini 没有 token 偏置');
  if (Array.isArray(body.modalities) && body.modalities.some((m) => m !== 'text'))
    throw refused(
      'modalities',
      'Gemini chat models answer with text through this API, not audio',
      'Gemini 对话模型通过此接口只输出文本，不输出音频',
    );
}

const refused = (field: string, why: string, zh: string) =>
  refusal(
    400,
    `The field "${field}" is not supported on a Gemini upstream: ${why}.`,
    `Gemini 上游不支持字段 "${field}"：${zh}。`,
    'unsupported_field',
  );
