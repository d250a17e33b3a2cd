import { textOfBlocks } from '../anthropic/request.ts';
import type { SseEvent } from '../types.ts';

/*
 * Bedrock's Converse API serves every chat model family (Nova, Llama, Mistral,
 * DeepSeek...) in one shape. It is reached through the Anthropic conversions the
 * relay already has: OpenAI -> Anthropic Messages -> Converse on the way up, and
 * Converse -> Anthropic (answer or stream events) -> OpenAI on the way down, so
 * tools, images, stop reasons and usage follow the same rules as on Claude.
 */

type Json = Record<string, unknown>;
interface AnthropicBlock {
  type?: string;
  text?: string;
  source?: { media_type?: string; data?: string };
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
}

function toConverseBlock(b: AnthropicBlock): Json | undefined {
  switch (b.type) {
    case 'text':
      return b.text ? { text: b.text } : undefined;
    case 'image':
      return {
        image: { format: (b.source?.media_type ?? 'image/png').split('/')[1], source: { bytes: b.source?.data ?? '' } },
      };
    case 'tool_use':
      return { toolUse: { toolUseId: b.id, name: b.name, input: b.input ?? {} } };
    case 'tool_result':
      return { toolResult: { toolUseId: b.tool_use_id, content: [{ text: textOfBlocks(b.content) || '(empty)' }] } };
    default:
      // Thinking blocks of earlier turns and other Anthropic-only blocks have no Converse form.
      return undefined;
  }
}

/**
 * Anthropic's `system` -> Converse's system blocks: a string, or text blocks (the Anthropic door keeps
 * a client's system blocks apart, and the Anthropic conversion renders them as blocks), one
 * `{text}` each so they stay apart. Their `cache_control` is not carried: Converse's `cachePoint`
 * is taken by a few model families only, and a cache hint is not content.
 */
function systemOf(system: unknown): Json[] {
  if (typeof system === 'string') return system ? [{ text: system }] : [];
  if (!Array.isArray(system)) return [];
  return (system as AnthropicBlock[])
    .filter((b) => b?.type === 'text' && typeof b.text === 'string' && b.text !== '')
    .map((b) => ({ text: b.text }));
}

/** Anthropic Messages body (as the Anthropic conversion builds it) -> Converse body. */
export function toConverseBody(a: Json): Json {
  const messages = ((a.messages ?? []) as { role: string; content: unknown }[]).map((m) => ({
    role: m.role,
    content: (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as AnthropicBlock[]))
      .map(toConverseBlock)
      .filter((b): b is Json => b !== undefined),
  }));
  const out: Json = { messages };
  const system = systemOf(a.system);
  if (system.length > 0) out.system = system;
  const inference: Json = {};
  if (typeof a.max_tokens === 'number') inference.maxTokens = a.max_tokens;
  if (typeof a.temperature === 'number') inference.temperature = a.temperature;
  if (typeof a.top_p === 'number') inference.topP = a.top_p;
  if (Array.isArray(a.stop_sequences)) inference.stopSequences = a.stop_sequences;
  if (Object.keys(inference).length > 0) out.inferenceConfig = inference;
  const choice = a.tool_choice as { type?: string; name?: string } | undefined;
  if (Array.isArray(a.tools) && a.tools.length > 0 && choice?.type !== 'none') {
    const tools = (a.tools as { name: string; description?: string; input_schema?: unknown }[]).map((t) => ({
      toolSpec: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        inputSchema: { json: t.input_schema ?? { type: 'object', properties: {} } },
      },
    }));
    const toolChoice =
      choice?.type === 'any'
        ? { any: {} }
        : choice?.type === 'tool' && choice.name
          ? { tool: { name: choice.name } }
          : choice?.type === 'auto'
            ? { auto: {} }
            : undefined;
    out.toolConfig = { tools, ...(toolChoice ? { toolChoice } : {}) };
  }
  return out;
}

interface ConverseUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** Converse usage in Anthropic's terms (both count cache reads and writes apart from input). */
const anthropicUsage = (u: ConverseUsage | undefined) => ({
  input_tokens: u?.inputTokens ?? 0,
  output_tokens: u?.outputTokens ?? 0,
  cache_read_input_tokens: u?.cacheReadInputTokens ?? 0,
  cache_creation_input_tokens: u?.cacheWriteInputTokens ?? 0,
});

interface ConverseBlock {
  text?: string;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
  reasoningContent?: { reasoningText?: { text?: string } };
}

/** Converse answer -> the Anthropic Messages answer the Anthropic converter reads. */
export function fromConverseAnswer(text: string, model: string): string {
  const r = JSON.parse(text) as {
    output?: { message?: { content?: ConverseBlock[] } };
    stopReason?: string;
    usage?: ConverseUsage;
  };
  const content = (r.output?.message?.content ?? []).flatMap((b): Json[] =>
    b.text !== undefined
      ? [{ type: 'text', text: b.text }]
      : b.toolUse
        ? [{ type: 'tool_use', id: b.toolUse.toolUseId, name: b.toolUse.name, input: b.toolUse.input ?? {} }]
        : b.reasoningContent?.reasoningText
          ? [{ type: 'thinking', thinking: b.reasoningContent.reasoningText.text ?? '' }]
          : [],
  );
  return JSON.stringify({
    id: `msg_bedrock_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: r.stopReason ?? 'end_turn',
    usage: anthropicUsage(r.usage),
  });
}

interface ConverseEvent {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } };
  stopReason?: string;
  usage?: ConverseUsage;
}

/**
 * Converse stream events -> Anthropic stream events, one translator per stream. Converse
 * opens text blocks implicitly and reports usage after the stop, so a block is started at
 * its first delta, and the stop reason waits for `metadata` to go out with the usage.
 */
export function converseToAnthropicEvents(model: string): (e: SseEvent) => SseEvent[] {
  const open = new Set<number>();
  let stopReason = 'end_turn';
  const ev = (type: string, data: Json): SseEvent => ({ event: type, data: JSON.stringify({ type, ...data }) });
  return (e) => {
    if (e.event === 'error') return [e];
    let c: ConverseEvent;
    try {
      c = JSON.parse(e.data) as ConverseEvent;
    } catch {
      return [];
    }
    const index = c.contentBlockIndex ?? 0;
    switch (e.event) {
      case 'messageStart':
        return [
          ev('message_start', {
            message: { id: `msg_bedrock_${Date.now()}`, type: 'message', role: 'assistant', model, content: [] },
          }),
        ];
      case 'contentBlockStart': {
        const t = c.start?.toolUse;
        if (!t) return [];
        open.add(index);
        return [
          ev('content_block_start', {
            index,
            content_block: { type: 'tool_use', id: t.toolUseId, name: t.name, input: {} },
          }),
        ];
      }
      case 'contentBlockDelta': {
        const d = c.delta ?? {};
        const out: SseEvent[] = [];
        const start = (block: Json) => {
          if (open.has(index)) return;
          open.add(index);
          out.push(ev('content_block_start', { index, content_block: block }));
        };
        if (d.text !== undefined) {
          start({ type: 'text', text: '' });
          out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: d.text } }));
        } else if (d.toolUse) {
          out.push(
            ev('content_block_delta', {
              index,
              delta: { type: 'input_json_delta', partial_json: d.toolUse.input ?? '' },
            }),
          );
        } else if (d.reasoningContent?.text !== undefined) {
          start({ type: 'thinking', thinking: '' });
          out.push(
            ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: d.reasoningContent.text } }),
          );
        }
        return out;
      }
      case 'contentBlockStop':
        open.delete(index);
        return [ev('content_block_stop', { index })];
      case 'messageStop':
        stopReason = c.stopReason ?? stopReason;
        return [];
      case 'metadata':
        return [
          ev('message_delta', {
            delta: { stop_reason: stopReason, stop_sequence: null },
            usage: anthropicUsage(c.usage),
          }),
          ev('message_stop', {}),
        ];
      default:
        return [];
    }
  };
}
