import { nowSeconds } from '../../../db/time.ts';
import { type CarryStore, noCarry } from '../../canonical/carry.ts';
import { usageChunk } from '../shared/canonical-chunks.ts';
import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { type GeminiResponse, logprobsOf, toolCallOf } from './response.ts';
import { finishOf, type GeminiUsage, openAIUsageOf, parseGeminiUsage } from './usage.ts';

/**
 * Gemini SSE (one GenerateContentResponse per event, no end marker) -> OpenAI chunks, every
 * candidate as the choice of its index (n > 1): `role: assistant` first, text / thought parts as
 * content / reasoning_content, each functionCall as one complete streamed tool call (its signature
 * remembered, response.ts), the finish reason when a candidate reports one; usage and [DONE] at the end.
 */
export function createGeminiStreamConverter(
  model: string,
  clientWantsUsage: boolean,
  carry: CarryStore = noCarry,
): StreamConverter {
  const id = `chatcmpl-${Date.now()}`;
  const created = nowSeconds();
  let done = false;
  /** Per candidate index: tool calls streamed so far (absent until its role chunk went out). */
  const tools = new Map<number, number>();
  let raw: GeminiUsage | undefined;
  const text: string[] = [];
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null, extra = {}) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index, delta, finish_reason: finish, ...extra }],
    });
  const usage = (): Usage | undefined => parseGeminiUsage(raw);
  const start = (index: number, out: string[]) => {
    if (tools.has(index)) return;
    tools.set(index, 0);
    out.push(chunk(index, { role: 'assistant', content: '' }));
  };

  return {
    push(e: SseEvent): string[] {
      let r: GeminiResponse & { error?: { message?: string; status?: string } };
      try {
        r = JSON.parse(e.data) as typeof r;
      } catch {
        return [];
      }
      if (r.error) {
        done = true;
        return [
          JSON.stringify({
            error: { message: r.error.message ?? 'upstream error', type: r.error.status ?? 'upstream_error' },
          }),
          '[DONE]',
        ];
      }
      const out: string[] = [];
      start(0, out);
      if (r.usageMetadata) raw = r.usageMetadata;
      for (const [i, c] of (r.candidates ?? []).entries()) {
        const index = c.index ?? i;
        start(index, out);
        const logprobs = logprobsOf(c.logprobsResult);
        for (const p of c.content?.parts ?? []) {
          if (p.functionCall) {
            const call = toolCallOf(p, carry);
            text.push(call.function.arguments);
            const n = tools.get(index)!;
            tools.set(index, n + 1);
            out.push(chunk(index, { tool_calls: [{ index: n, ...call }] }));
          } else if (p.text) {
            text.push(p.text);
            out.push(
              chunk(
                index,
                p.thought ? { reasoning_content: p.text } : { content: p.text },
                null,
                logprobs && !p.thought ? { logprobs } : {},
              ),
            );
          }
        }
        if (c.finishReason) out.push(chunk(index, {}, finishOf(c.finishReason, (tools.get(index) ?? 0) > 0)));
      }
      return out;
    },
    end() {
      if (done) return [];
      done = true;
      const u = usage();
      const out: string[] = [];
      if (clientWantsUsage && u) out.push(usageChunk(id, created, model, openAIUsageOf(u, raw)));
      out.push('[DONE]');
      return out;
    },
    usage,
    producedText: () => text.join(''),
  };
}
