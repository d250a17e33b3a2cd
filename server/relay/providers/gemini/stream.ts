import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { callId, type GeminiResponse } from './response.ts';
import { finishOf, type GeminiUsage, openAIUsageOf, parseGeminiUsage } from './usage.ts';

/**
 * Gemini SSE (one GenerateContentResponse per event, no end marker) -> OpenAI
 * chunks: `role: assistant` first, text / thought parts as content /
 * reasoning_content, each functionCall as one complete streamed tool call, the
 * finish reason when a candidate reports one; usage and [DONE] at the end.
 */
export function createGeminiStreamConverter(model: string, clientWantsUsage: boolean): StreamConverter {
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  let done = false;
  let tools = 0;
  let raw: GeminiUsage | undefined;
  const text: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const usage = (): Usage | undefined => parseGeminiUsage(raw);

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
      if (!started) {
        started = true;
        out.push(chunk({ role: 'assistant', content: '' }));
      }
      if (r.usageMetadata) raw = r.usageMetadata;
      const c = r.candidates?.[0];
      for (const p of c?.content?.parts ?? []) {
        if (p.functionCall) {
          const args = JSON.stringify(p.functionCall.args ?? {});
          text.push(args);
          const call = {
            index: tools++,
            id: callId(p.functionCall),
            type: 'function',
            function: { name: p.functionCall.name, arguments: args },
          };
          out.push(chunk({ tool_calls: [call] }));
        } else if (p.text) {
          text.push(p.text);
          out.push(chunk(p.thought ? { reasoning_content: p.text } : { content: p.text }));
        }
      }
      if (c?.finishReason) out.push(chunk({}, finishOf(c.finishReason, tools > 0)));
      return out;
    },
    end() {
      if (done) return [];
      done = true;
      const u = usage();
      const out: string[] = [];
      if (clientWantsUsage && u)
        out.push(
          JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsageOf(u) }),
        );
      out.push('[DONE]');
      return out;
    },
    usage,
    producedText: () => text.join(''),
  };
}
