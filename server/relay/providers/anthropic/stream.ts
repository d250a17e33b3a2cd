import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { type AnthropicUsage, finishReasonOf, openAIUsageOf, parseAnthropicUsage } from './usage.ts';

interface Event {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/**
 * Anthropic SSE events -> OpenAI chunks (relay.md §8): message_start opens with
 * `role: assistant`; text/thinking/tool-input deltas become content,
 * reasoning_content and streamed tool_calls (one OpenAI index per tool_use block);
 * message_delta carries the finish reason and the final output count.
 */
export function createAnthropicStreamConverter(model: string, clientWantsUsage: boolean): StreamConverter {
  let id = `chatcmpl-${Date.now()}`;
  let name = model;
  const created = Math.floor(Date.now() / 1000);
  let raw: AnthropicUsage = {};
  let seen = false;
  let done = false;
  const toolIndex = new Map<number, number>();
  const text: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: name,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const usage = (): Usage | undefined => (seen ? parseAnthropicUsage(raw) : undefined);

  const finish = (): string[] => {
    if (done) return [];
    done = true;
    const u = usage();
    const out: string[] = [];
    if (clientWantsUsage && u)
      out.push(
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model: name,
          choices: [],
          usage: openAIUsageOf(u),
        }),
      );
    out.push('[DONE]');
    return out;
  };

  return {
    push(e: SseEvent): string[] {
      let ev: Event;
      try {
        ev = JSON.parse(e.data) as Event;
      } catch {
        return [];
      }
      switch (ev.type) {
        case 'message_start':
          id = ev.message?.id ?? id;
          name = ev.message?.model ?? name;
          raw = { ...raw, ...ev.message?.usage };
          seen = true;
          return [chunk({ role: 'assistant', content: '' })];
        case 'content_block_start':
          if (ev.content_block?.type === 'tool_use') {
            const i = toolIndex.size;
            toolIndex.set(ev.index ?? 0, i);
            const call = {
              index: i,
              id: ev.content_block.id,
              type: 'function',
              function: { name: ev.content_block.name, arguments: '' },
            };
            return [chunk({ tool_calls: [call] })];
          }
          return [];
        case 'content_block_delta': {
          const d = ev.delta ?? {};
          if (d.type === 'text_delta' && d.text) {
            text.push(d.text);
            return [chunk({ content: d.text })];
          }
          if (d.type === 'thinking_delta' && d.thinking) {
            text.push(d.thinking);
            return [chunk({ reasoning_content: d.thinking })];
          }
          if (d.type === 'input_json_delta' && d.partial_json) {
            text.push(d.partial_json);
            const call = { index: toolIndex.get(ev.index ?? 0) ?? 0, function: { arguments: d.partial_json } };
            return [chunk({ tool_calls: [call] })];
          }
          return [];
        }
        case 'message_delta':
          // Its usage holds the final output count (and, since 2025, cumulative input counts).
          for (const [k, v] of Object.entries(ev.usage ?? {}))
            if (v !== null && v !== undefined) (raw as Record<string, unknown>)[k] = v;
          seen = true;
          return [chunk({}, finishReasonOf(ev.delta?.stop_reason) ?? 'stop')];
        case 'message_stop':
          return finish();
        case 'error':
          done = true;
          return [
            JSON.stringify({
              error: { message: ev.error?.message ?? 'upstream error', type: ev.error?.type ?? 'upstream_error' },
            }),
            '[DONE]',
          ];
        default:
          return [];
      }
    },
    end: finish,
    usage,
    producedText: () => text.join(''),
  };
}
