import type { Usage } from '../../providers/types.ts';
import { gatewaySignature } from './signature.ts';

export interface CanonicalToolCallOut {
  id?: string;
  function?: { name?: string; arguments?: string };
  thought_signature?: string;
}
interface OpenAILogprobs {
  content?: { token?: string; logprob?: number; top_logprobs?: { token?: string; logprob?: number }[] }[] | null;
}
interface ChatCompletion {
  model?: string;
  choices?: {
    index?: number;
    finish_reason?: string | null;
    logprobs?: OpenAILogprobs | null;
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: CanonicalToolCallOut[];
    };
  }[];
  usage?: { completion_tokens_details?: { reasoning_tokens?: number } };
}

/** OpenAI finish reasons -> Gemini's. */
export function finishReasonOf(f: string | null | undefined): string {
  if (f === 'length') return 'MAX_TOKENS';
  if (f === 'content_filter') return 'SAFETY';
  return 'STOP';
}

/** Usage as usageMetadata: reasoning tokens are Gemini's thoughtsTokenCount, apart from candidatesTokenCount. */
export function usageMetadataOf(u: Usage | undefined, reasoningTokens = 0) {
  if (!u) return { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 };
  const thoughts = Math.min(reasoningTokens, u.completionTokens);
  return {
    promptTokenCount: u.promptTokens,
    candidatesTokenCount: u.completionTokens - thoughts,
    totalTokenCount: u.promptTokens + u.completionTokens,
    ...(u.cachedTokens ? { cachedContentTokenCount: u.cachedTokens } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

export function argsOf(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { raw: text };
  }
}

/**
 * A tool call as a functionCall part: its id kept, and a thoughtSignature — the upstream's own when
 * it gave one, else one the gateway makes that holds the id (signature.ts), so the id survives a
 * client that echoes only signatures.
 */
export function functionCallPart(t: CanonicalToolCallOut) {
  const id = t.id ?? '';
  return {
    functionCall: { ...(id ? { id } : {}), name: t.function?.name ?? '', args: argsOf(t.function?.arguments) },
    ...(t.thought_signature || id ? { thoughtSignature: t.thought_signature ?? gatewaySignature(id) } : {}),
  };
}

/** OpenAI's choice.logprobs -> Gemini's logprobsResult. */
export function logprobsResultOf(l: OpenAILogprobs | null | undefined) {
  if (!l?.content?.length) return undefined;
  return {
    chosenCandidates: l.content.map((c) => ({ token: c.token ?? '', logProbability: c.logprob ?? 0 })),
    topCandidates: l.content.map((c) => ({
      candidates: (c.top_logprobs ?? []).map((t) => ({ token: t.token ?? '', logProbability: t.logprob ?? 0 })),
    })),
  };
}

/** Canonical OpenAI chat completion -> Gemini generateContent answer, every choice a candidate of its index. */
export function openAIToGeminiResponse(text: string, usage: Usage | undefined, model: string): string {
  const o = JSON.parse(text) as ChatCompletion;
  const candidates = (o.choices ?? []).map((c, i) => {
    const parts: Record<string, unknown>[] = [];
    const reasoning = c.message?.reasoning_content ?? c.message?.reasoning;
    if (reasoning) parts.push({ text: reasoning, thought: true });
    if (c.message?.content) parts.push({ text: c.message.content });
    for (const t of c.message?.tool_calls ?? []) parts.push(functionCallPart(t));
    const logprobsResult = logprobsResultOf(c.logprobs);
    return {
      content: { role: 'model', parts },
      finishReason: finishReasonOf(c.finish_reason),
      index: c.index ?? i,
      ...(logprobsResult ? { logprobsResult } : {}),
    };
  });
  const reasoningTokens = o.usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  return JSON.stringify({ candidates, usageMetadata: usageMetadataOf(usage, reasoningTokens), modelVersion: model });
}
