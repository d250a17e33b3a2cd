import type { Usage } from '../types.ts';

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number } | null;
  completion_tokens_details?: { audio_tokens?: number; reasoning_tokens?: number } | null;
  /** The Responses API (and gpt-image-1) name them input/output tokens. */
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek reports cache reads here instead. */
  prompt_cache_hit_tokens?: number;
}

/** OpenAI `usage` -> normalised usage; undefined when absent or not an object. */
export function parseOpenAIUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const o = u as OpenAIUsage;
  const prompt = Number(o.prompt_tokens ?? o.input_tokens ?? 0) || 0;
  const total = Number(o.total_tokens ?? 0) || 0;
  const completionField = o.completion_tokens ?? o.output_tokens;
  // Embeddings report only prompt and total tokens.
  const completion = completionField !== undefined ? Number(completionField) || 0 : Math.max(0, total - prompt);
  const cached =
    Number(
      o.prompt_tokens_details?.cached_tokens ?? o.input_tokens_details?.cached_tokens ?? o.prompt_cache_hit_tokens ?? 0,
    ) || 0;
  const usage: Usage = {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: cached,
    cacheCreationTokens: 0,
  };
  const audioIn = Number(o.prompt_tokens_details?.audio_tokens ?? 0) || 0;
  const audioOut = Number(o.completion_tokens_details?.audio_tokens ?? 0) || 0;
  if (audioIn > 0) usage.audioPromptTokens = audioIn;
  if (audioOut > 0) usage.audioCompletionTokens = audioOut;
  // Part of completion_tokens already (OpenAI, DeepSeek, OpenRouter): reported, never billed twice.
  const reasoning =
    Number(o.completion_tokens_details?.reasoning_tokens ?? o.output_tokens_details?.reasoning_tokens ?? 0) || 0;
  if (reasoning > 0) usage.reasoningTokens = reasoning;
  return usage;
}
