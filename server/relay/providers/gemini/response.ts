import { nowSeconds } from '../../../db/time.ts';
import { type CarryStore, noCarry } from '../../canonical/carry.ts';
import type { Usage } from '../types.ts';
import { finishOf, type GeminiUsage, openAIUsageOf, parseGeminiUsage } from './usage.ts';

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name?: string; args?: unknown; id?: string };
  inlineData?: { mimeType?: string; data?: string };
}
interface LogprobCandidate {
  token?: string;
  logProbability?: number;
}
export interface LogprobsResult {
  topCandidates?: { candidates?: LogprobCandidate[] }[];
  chosenCandidates?: LogprobCandidate[];
}
export interface GeminiCandidate {
  content?: { parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
  logprobsResult?: LogprobsResult;
}
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsage;
  modelVersion?: string;
  responseId?: string;
}

let seq = 0;
/** Gemini calls carry no id (or one OpenAI clients cannot round-trip); a stable unique one is made. */
export const callId = (c: { id?: string }) => c.id ?? `call_${Date.now().toString(36)}${(seq++).toString(36)}`;

/**
 * A functionCall part as an OpenAI tool call. Its thoughtSignature is remembered under the call's id
 * (the client echoes the id, and the next turn's request puts the signature back: canonical/carry.ts)
 * and also rides on the call as `thought_signature`, which OpenAI SDKs ignore and clients that echo
 * the whole message give back (then no store is needed at all).
 */
export function toolCallOf(p: GeminiPart, carry: CarryStore) {
  const id = callId(p.functionCall!);
  if (p.thoughtSignature) carry.remember(id, { thought_signature: p.thoughtSignature });
  return {
    id,
    type: 'function' as const,
    function: { name: p.functionCall!.name ?? '', arguments: JSON.stringify(p.functionCall!.args ?? {}) },
    ...(p.thoughtSignature ? { thought_signature: p.thoughtSignature } : {}),
  };
}

/** Gemini's logprobsResult -> OpenAI's choice.logprobs. */
export function logprobsOf(r: LogprobsResult | undefined) {
  if (!r?.chosenCandidates) return undefined;
  const entry = (c: LogprobCandidate) => ({ token: c.token ?? '', logprob: c.logProbability ?? 0, bytes: null });
  return {
    content: r.chosenCandidates.map((c, i) => ({
      ...entry(c),
      top_logprobs: (r.topCandidates?.[i]?.candidates ?? []).map(entry),
    })),
    refusal: null,
  };
}

/** Gemini generateContent answer -> OpenAI chat completion: every candidate a choice, thought parts as reasoning_content. */
export function fromGeminiResponse(
  text: string,
  model: string,
  carry: CarryStore = noCarry,
): { body: string; usage?: Usage } {
  const r = JSON.parse(text) as GeminiResponse;
  const choices = (r.candidates ?? []).map((c, i) => {
    let content = '';
    let reasoning = '';
    const calls: ReturnType<typeof toolCallOf>[] = [];
    for (const p of c.content?.parts ?? []) {
      if (p.functionCall) calls.push(toolCallOf(p, carry));
      else if (p.inlineData) content += `![image](data:${p.inlineData.mimeType};base64,${p.inlineData.data})`;
      else if (p.thought) reasoning += p.text ?? '';
      else content += p.text ?? '';
    }
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: content === '' && calls.length ? null : content,
    };
    if (reasoning) message.reasoning_content = reasoning;
    if (calls.length) message.tool_calls = calls;
    const logprobs = logprobsOf(c.logprobsResult);
    return {
      index: c.index ?? i,
      message,
      finish_reason: finishOf(c.finishReason ?? 'STOP', calls.length > 0),
      ...(logprobs ? { logprobs } : {}),
    };
  });
  // A blocked prompt has no candidates: OpenAI clients get one empty choice stopped by the filter.
  if (!choices.length && r.promptFeedback?.blockReason)
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  const usage = parseGeminiUsage(r.usageMetadata);
  const out = {
    id: `chatcmpl-${r.responseId ?? Date.now()}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model: r.modelVersion ?? model,
    choices,
    ...(usage ? { usage: openAIUsageOf(usage, r.usageMetadata) } : {}),
  };
  return { body: JSON.stringify(out), usage };
}
