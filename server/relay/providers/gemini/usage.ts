import type { Usage } from '../types.ts';

export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

const n = (v: unknown) => Number(v ?? 0) || 0;

/** usageMetadata -> normalised usage: promptTokenCount already includes cached content; thoughts are output. */
export function parseGeminiUsage(u: GeminiUsage | undefined): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  return {
    promptTokens: n(u.promptTokenCount) + n(u.toolUsePromptTokenCount),
    completionTokens: n(u.candidatesTokenCount) + n(u.thoughtsTokenCount),
    cachedTokens: n(u.cachedContentTokenCount),
    cacheCreationTokens: 0,
  };
}

/** OpenAI usage; Gemini's thoughts are completion tokens (billed so) and reported as reasoning_tokens. */
export const openAIUsageOf = (u: Usage, raw: GeminiUsage | undefined) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
  prompt_tokens_details: { cached_tokens: u.cachedTokens },
  ...(raw?.thoughtsTokenCount ? { completion_tokens_details: { reasoning_tokens: n(raw.thoughtsTokenCount) } } : {}),
});

/** Gemini finish reasons -> OpenAI's; a turn that called functions finishes with tool_calls. */
export function finishOf(reason: string | undefined, calledTools: boolean): string | null {
  if (!reason) return null;
  if (calledTools) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY'].includes(reason))
    return 'content_filter';
  return 'stop';
}
