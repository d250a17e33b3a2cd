import type { CacheControl, ThinkingBlock } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';
import { inlineImage, parseArgs, parseDataUrl } from '../shared/images.ts';
import type { AttemptContext } from '../types.ts';

/*
 * Canonical messages -> Anthropic `system` and `messages` (docs/conversion.md § Anthropic):
 * system/developer messages to system blocks (cache_control kept), tool messages to tool_result
 * blocks (text and images, is_error), assistant turns to thinking + text + tool_use blocks,
 * consecutive same-role messages merged (Anthropic wants roles to alternate).
 */

export type Block = Record<string, unknown>;
export interface AnthropicTurn {
  role: 'user' | 'assistant';
  content: Block[];
}

interface Part {
  type?: string;
  text?: string;
  refusal?: string;
  image_url?: { url?: string } | string;
  file?: { file_data?: string; file_id?: string; filename?: string };
  cache_control?: CacheControl;
}
export interface Message {
  role: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  tool_call_id?: string;
  is_error?: boolean;
  thinking_blocks?: unknown;
}

export interface RenderedMessages {
  system?: string | Block[];
  messages: AnthropicTurn[];
  /**
   * Whether every tool-calling assistant turn of the current loop (after the last user message)
   * starts with signed thinking: Anthropic refuses thinking on a loop whose final turn has none.
   */
  loopSigned: boolean;
}

const isSystem = (m: Message) => m.role === 'system' || m.role === 'developer';

export async function renderMessages(ctx: AttemptContext, all: Message[]): Promise<RenderedMessages> {
  const system = renderSystem(all.filter(isSystem));
  const messages = all.filter((m) => !isSystem(m));
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const loop = new Set(messages.filter((m, i) => i > lastUser && m.role === 'assistant'));
  const recalled = await recallThinking(ctx, [...loop]);

  const out: AnthropicTurn[] = [];
  let loopSigned = true;
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    let blocks: Block[];
    if (m.role === 'tool') blocks = [await toolResult(m)];
    else {
      blocks = await blocksOfContent(m.content);
      if (m.role === 'assistant') {
        const thinking = signedBlocks(m.thinking_blocks) ?? recalled.get(m);
        for (const c of m.tool_calls ?? [])
          blocks.push({
            type: 'tool_use',
            id: c.id ?? '',
            name: c.function?.name ?? '',
            input: parseArgs(c.function?.arguments),
          });
        if (loop.has(m) && m.tool_calls?.length && !thinking?.length) loopSigned = false;
        // Signed blocks go back first in their turn, unchanged (their signature covers them).
        if (thinking?.length && blocks.length > 0) blocks.unshift(...thinking);
      }
    }
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return { system, messages: out, loopSigned };
}

/** System messages: one string when they are plain text (as before), else text blocks keeping cache_control. */
function renderSystem(system: Message[]): string | Block[] | undefined {
  if (system.length === 0) return undefined;
  if (system.every((m) => typeof m.content === 'string')) {
    const text = system.map((m) => m.content as string).filter(Boolean);
    return text.length > 0 ? text.join('\n') : undefined;
  }
  const blocks: Block[] = [];
  for (const m of system) {
    if (typeof m.content === 'string') {
      if (m.content !== '') blocks.push({ type: 'text', text: m.content });
      continue;
    }
    for (const p of (Array.isArray(m.content) ? m.content : []) as Part[]) {
      if (p?.type !== 'text')
        throw refusal(
          400,
          `A system message holds a ${String(p?.type)} part: Anthropic's system prompt takes text only`,
          `system 消息含有 ${String(p?.type)} 内容：Anthropic 的 system 只接受文本`,
        );
      if (p.text) blocks.push(withCache({ type: 'text', text: p.text }, p));
    }
  }
  return blocks.length > 0 ? blocks : undefined;
}

/**
 * The signed thinking of the current loop's assistant turns that carry none themselves: the
 * provider's converter remembered it under each tool call it returned (canonical/carry.ts).
 */
async function recallThinking(ctx: AttemptContext, loop: Message[]): Promise<Map<Message, ThinkingBlock[]>> {
  const out = new Map<Message, ThinkingBlock[]>();
  const wanting = loop.filter((m) => !signedBlocks(m.thinking_blocks) && m.tool_calls?.length);
  const ids = wanting.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id ?? '')).filter(Boolean);
  if (ids.length === 0) return out;
  const carried = await ctx.carry.recall(ids);
  for (const m of wanting)
    for (const c of m.tool_calls ?? []) {
      const blocks = signedBlocks(carried.get(c.id ?? '')?.thinking_blocks);
      if (blocks) {
        out.set(m, blocks);
        break;
      }
    }
  return out;
}

/** Thinking blocks Anthropic will take back: signed thinking and redacted thinking (others have no signature). */
function signedBlocks(v: unknown): ThinkingBlock[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const blocks = (v as ThinkingBlock[]).filter((b) =>
    b?.type === 'thinking'
      ? typeof b.signature === 'string' && b.signature !== ''
      : b?.type === 'redacted_thinking' && typeof b.data === 'string',
  );
  return blocks.length > 0
    ? blocks.map((b) =>
        b.type === 'thinking'
          ? { type: 'thinking', thinking: b.thinking, signature: b.signature }
          : { type: 'redacted_thinking', data: b.data },
      )
    : undefined;
}

async function toolResult(m: Message): Promise<Block> {
  const out: Block = { type: 'tool_result', tool_use_id: m.tool_call_id ?? '' };
  if (Array.isArray(m.content)) {
    const blocks = await blocksOfContent(m.content);
    out.content = blocks.length > 0 ? blocks : '(empty)';
  } else out.content = typeof m.content === 'string' && m.content !== '' ? m.content : '(empty)';
  if (m.is_error === true) out.is_error = true;
  return out;
}

const withCache = (b: Block, p: Part): Block => (p.cache_control ? { ...b, cache_control: p.cache_control } : b);

async function blocksOfContent(content: unknown): Promise<Block[]> {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const p of content as Part[]) {
    switch (p?.type) {
      case 'text':
        // Anthropic refuses empty text blocks.
        if (typeof p.text === 'string' && p.text !== '') blocks.push(withCache({ type: 'text', text: p.text }, p));
        break;
      case 'refusal':
        if (p.refusal) blocks.push({ type: 'text', text: p.refusal });
        break;
      case 'image_url': {
        const url = typeof p.image_url === 'string' ? p.image_url : (p.image_url?.url ?? '');
        const img = await inlineImage(url);
        blocks.push(
          withCache({ type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.data } }, p),
        );
        break;
      }
      case 'file':
        blocks.push(withCache(documentOf(p.file ?? {}), p));
        break;
      case 'input_audio':
        throw refusal(400, 'input_audio: Anthropic takes no audio input', 'input_audio：Anthropic 不接受音频输入');
      default:
        throw refusal(
          400,
          `Content part of type ${String(p?.type)} cannot be converted for an Anthropic upstream`,
          `内容类型 ${String(p?.type)} 无法转换给 Anthropic 上游`,
        );
    }
  }
  return blocks;
}

/** An OpenAI file part -> a document block: PDFs as base64, text as text, http(s) URLs by reference. */
function documentOf(f: NonNullable<Part['file']>): Block {
  const title = f.filename ? { title: f.filename } : {};
  const data = f.file_data ?? '';
  if (/^https?:\/\//i.test(data)) return { type: 'document', source: { type: 'url', url: data }, ...title };
  const inline = parseDataUrl(data);
  if (!inline)
    throw refusal(
      400,
      f.file_id
        ? 'file_id: OpenAI file ids mean nothing to an Anthropic upstream; send the file as file_data'
        : 'A file part needs file_data (a data URL) for an Anthropic upstream',
      f.file_id
        ? 'file_id：Anthropic 上游无法读取 OpenAI 的文件 id，请用 file_data 发送文件'
        : '文件需以 file_data（data URL）发送',
    );
  if (inline.mediaType === 'application/pdf')
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: inline.data }, ...title };
  if (inline.mediaType.startsWith('text/') || inline.mediaType === 'application/json')
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(inline.data, 'base64').toString('utf8') },
      ...title,
    };
  throw refusal(
    400,
    `A ${inline.mediaType} file cannot be sent to Anthropic: documents are PDF or text`,
    `Anthropic 不接受 ${inline.mediaType} 文件：文档只能是 PDF 或文本`,
  );
}
