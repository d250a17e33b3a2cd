import { nowSeconds } from '../../../db/time.ts';
import type { ThinkingBlock } from '../../canonical/types.ts';
import { usageChunk } from '../shared/canonical-chunks.ts';
import type { AttemptContext, SseEvent, StreamConverter, Usage } from '../types.ts';
import { answerText, jsonAnswerOf } from './structured.ts';
import { type AnthropicUsage, finishReasonOf, openAIUsageOf, parseAnthropicUsage } from './usage.ts';

interface Event {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/** What one Anthropic content block is becoming, by its index. */
type OpenBlock =
  | { kind: 'thinking'; block: { type: 'thinking'; thinking: string; signature: string } }
  | { kind: 'tool'; index: number }
  /** The json_schema emulation's tool: its input is the answer's content (structured.ts). */
  | { kind: 'json'; buffered: string[] };

/**
 * Anthropic SSE events -> OpenAI chunks (relay.md §8): message_start opens with
 * `role: assistant`; text/thinking/tool-input deltas become content,
 * reasoning_content and streamed tool_calls (one OpenAI index per tool_use block);
 * message_delta carries the finish reason and the final output count. Signed thinking
 * (thinking text + signature_delta, redacted blocks) is remembered under each tool call of
 * the turn for the next request (canonical/carry.ts).
 */
export function createAnthropicStreamConverter(
  ctx: AttemptContext,
  model: string,
  clientWantsUsage: boolean,
): StreamConverter {
  const json = jsonAnswerOf(ctx);
  let id = `chatcmpl-${Date.now()}`;
  let name = model;
  const created = nowSeconds();
  let raw: AnthropicUsage = {};
  let seen = false;
  let done = false;
  const blocks = new Map<number, OpenBlock>();
  const thinking: ThinkingBlock[] = [];
  const toolIds: string[] = [];
  let remembered = false;
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

  /** The turn's signed thinking goes with each of its tool calls (once the turn is complete). */
  const remember = () => {
    const signed = thinking.filter((b) => b.type === 'redacted_thinking' || b.signature !== '');
    if (remembered || signed.length === 0) return;
    remembered = true;
    for (const id of toolIds) ctx.carry.remember(id, { thinking_blocks: signed });
  };

  const finish = (): string[] => {
    if (done) return [];
    done = true;
    remember();
    const u = usage();
    const out: string[] = [];
    if (clientWantsUsage && u) out.push(usageChunk(id, created, name, openAIUsageOf(u)));
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
        case 'content_block_start': {
          const b = ev.content_block ?? {};
          const at = ev.index ?? 0;
          if (b.type === 'thinking') {
            const block = { type: 'thinking' as const, thinking: '', signature: '' };
            blocks.set(at, { kind: 'thinking', block });
            thinking.push(block);
          } else if (b.type === 'redacted_thinking' && b.data)
            thinking.push({ type: 'redacted_thinking', data: b.data });
          else if (b.type === 'tool_use' && json && b.name === json.tool)
            blocks.set(at, { kind: 'json', buffered: [] });
          else if (b.type === 'tool_use') {
            const i = toolIds.length;
            toolIds.push(b.id ?? '');
            blocks.set(at, { kind: 'tool', index: i });
            const call = { index: i, id: b.id, type: 'function', function: { name: b.name, arguments: '' } };
            return [chunk({ tool_calls: [call] })];
          }
          return [];
        }
        case 'content_block_delta': {
          const d = ev.delta ?? {};
          const open = blocks.get(ev.index ?? 0);
          if (d.type === 'text_delta' && d.text) {
            text.push(d.text);
            return [chunk({ content: d.text })];
          }
          if (d.type === 'thinking_delta' && d.thinking) {
            text.push(d.thinking);
            if (open?.kind === 'thinking') open.block.thinking += d.thinking;
            return [chunk({ reasoning_content: d.thinking })];
          }
          if (d.type === 'signature_delta' && d.signature && open?.kind === 'thinking') {
            open.block.signature += d.signature;
            return [];
          }
          if (d.type === 'input_json_delta' && d.partial_json) {
            text.push(d.partial_json);
            if (open?.kind === 'json') {
              // A wrapped answer ({value: ...}) is unwrapped whole at the block's end.
              if (json?.wrapped) open.buffered.push(d.partial_json);
              return json?.wrapped ? [] : [chunk({ content: d.partial_json })];
            }
            const call = { index: open?.kind === 'tool' ? open.index : 0, function: { arguments: d.partial_json } };
            return [chunk({ tool_calls: [call] })];
          }
          return [];
        }
        case 'content_block_stop': {
          const open = blocks.get(ev.index ?? 0);
          if (open?.kind !== 'json' || !json?.wrapped) return [];
          let input: unknown;
          try {
            input = JSON.parse(open.buffered.join('') || '{}');
          } catch {
            input = {};
          }
          return [chunk({ content: answerText(json, input) })];
        }
        case 'message_delta': {
          // Its usage holds the final output count (and, since 2025, cumulative input counts).
          for (const [k, v] of Object.entries(ev.usage ?? {}))
            if (v !== null && v !== undefined) (raw as Record<string, unknown>)[k] = v;
          seen = true;
          remember();
          const reason = finishReasonOf(ev.delta?.stop_reason) ?? 'stop';
          // The json_schema emulation's forced call ends the turn like any answer.
          return [chunk({}, reason === 'tool_calls' && toolIds.length === 0 ? 'stop' : reason)];
        }
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
