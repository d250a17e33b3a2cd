import type { Usage } from '../types.ts';

/**
 * Rerank usage in its dialects: Jina `usage.total_tokens`, Cohere
 * `meta.billed_units.{input_tokens|search_units}` and `meta.tokens.input_tokens`
 * (SiliconFlow, Xinference). Every token is an input token; undefined when absent.
 */
export function parseRerankUsage(text: string): Usage | undefined {
  try {
    const o = JSON.parse(text) as {
      usage?: { total_tokens?: number; prompt_tokens?: number };
      meta?: { billed_units?: { input_tokens?: number }; tokens?: { input_tokens?: number } };
    };
    const n =
      o.usage?.total_tokens ??
      o.usage?.prompt_tokens ??
      o.meta?.tokens?.input_tokens ??
      o.meta?.billed_units?.input_tokens;
    if (n === undefined) return undefined;
    return { promptTokens: Number(n) || 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0 };
  } catch {
    return undefined;
  }
}
