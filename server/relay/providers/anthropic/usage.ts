import type { Usage } from '../types.ts';

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

const n = (v: unknown) => Number(v ?? 0) || 0;

/**
 * Anthropic reports `input_tokens` WITHOUT cache tokens (relay.md §5): cache reads
 * are added to the prompt (then billed at CacheRatio), cache writes stay apart
 * (billed at CacheCreationRatio), per the Usage contract in types.ts.
 */
export function parseAnthropicUsage(u: AnthropicUsage | undefined): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const cached = n(u.cache_read_input_tokens);
  return {
    promptTokens: n(u.input_tokens) + cached,
    completionTokens: n(u.output_tokens),
    cachedTokens: cached,
    cacheCreationTokens: n(u.cache_creation_input_tokens),
  };
}

/** The OpenAI `usage` object shown to clients of an Anthropic channel (every input token counted). */
export function openAIUsageOf(u: Usage) {
  const prompt = u.promptTokens + u.cacheCreationTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.completionTokens,
    total_tokens: prompt + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens, cache_creation_tokens: u.cacheCreationTokens },
  };
}

/** Stop reasons -> OpenAI finish reasons (relay.md §8). */
export function finishReasonOf(stop: string | null | undefined): string | null {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case null:
    case undefined:
      return null;
    default:
      return 'stop';
  }
}
