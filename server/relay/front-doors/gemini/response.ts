import type { Usage } from '../../providers/types.ts';

interface ChatCompletion {
  model?: string;
  choices?: {
    index?: number;
    finish_reason?: string | null;
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
}

/** OpenAI finish reasons -> Gemini's. */
export function finishReasonOf(f: string | null | undefined): string {
  if (f === 'length') return 'MAX_TOKENS';
  if (f === 'content_filter') return 'SAFETY';
  return 'STOP';
}

export function usageMetadataOf(u: Usage | undefined) {
  if (!u) return { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 };
  return {
    promptTokenCount: u.promptTokens,
    candidatesTokenCount: u.completionTokens,
    totalTokenCount: u.promptTokens + u.completionTokens,
    ...(u.cachedTokens ? { cachedContentTokenCount: u.cachedTokens } : {}),
  };
}

export function argsOf(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { raw: text };
  }
}

/** Canonical OpenAI chat completion -> Gemini generateContent answer. */
export function openAIToGeminiResponse(text: string, usage: Usage | undefined, model: string): string {
  const o = JSON.parse(text) as ChatCompletion;
  const candidates = (o.choices ?? []).map((c, i) => {
    const parts: Record<string, unknown>[] = [];
    if (c.message?.reasoning_content) parts.push({ text: c.message.reasoning_content, thought: true });
    if (c.message?.content) parts.push({ text: c.message.content });
    for (const t of c.message?.tool_calls ?? [])
      parts.push({ functionCall: { name: t.function?.name, args: argsOf(t.function?.arguments) } });
    return { content: { role: 'model', parts }, finishReason: finishReasonOf(c.finish_reason), index: c.index ?? i };
  });
  return JSON.stringify({ candidates, usageMetadata: usageMetadataOf(usage), modelVersion: model });
}
