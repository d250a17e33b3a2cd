import type { CanonicalUsage } from '../../../canonical/types.ts';

export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens?: number;
}

/** Responses usage -> chat usage. */
export const usageToCanonical = (u: ResponsesUsage): CanonicalUsage => ({
  prompt_tokens: u.input_tokens ?? 0,
  completion_tokens: u.output_tokens ?? 0,
  total_tokens: u.total_tokens ?? (u.input_tokens ?? 0) + (u.output_tokens ?? 0),
  prompt_tokens_details: { cached_tokens: u.input_tokens_details?.cached_tokens ?? 0 },
  completion_tokens_details: { reasoning_tokens: u.output_tokens_details?.reasoning_tokens ?? 0 },
});
