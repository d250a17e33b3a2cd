import type { Usage } from '../types.ts';
import { finishOf, type GeminiUsage, openAIUsageOf, parseGeminiUsage } from './usage.ts';

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { name?: string; args?: unknown; id?: string };
  inlineData?: { mimeType?: string; data?: string };
}
export interface GeminiResponse {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string; index?: number }[];
  usageMetadata?: GeminiUsage;
  modelVersion?: string;
  responseId?: string;
}

let seq = 0;
/** Gemini calls carry no id (or one OpenAI clients cannot round-trip); a stable unique one is made. */
export const callId = (c: { id?: string }) => c.id ?? `call_${Date.now().toString(36)}${(seq++).toString(36)}`;

/** Gemini generateContent answer -> OpenAI chat completion (thought parts -> reasoning_content). */
export function fromGeminiResponse(text: string, model: string): { body: string; usage?: Usage } {
  const r = JSON.parse(text) as GeminiResponse;
  const choices = (r.candidates ?? []).map((c, i) => {
    let content = '';
    let reasoning = '';
    const calls: unknown[] = [];
    for (const p of c.content?.parts ?? []) {
      if (p.functionCall)
        calls.push({
          id: callId(p.functionCall),
          type: 'function',
          function: { name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) },
        });
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
    return { index: c.index ?? i, message, finish_reason: finishOf(c.finishReason ?? 'STOP', calls.length > 0) };
  });
  const usage = parseGeminiUsage(r.usageMetadata);
  const out = {
    id: `chatcmpl-${r.responseId ?? Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: r.modelVersion ?? model,
    choices,
    ...(usage ? { usage: openAIUsageOf(usage) } : {}),
  };
  return { body: JSON.stringify(out), usage };
}
