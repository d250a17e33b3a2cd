import type { CanonicalMessage, CanonicalPart, CanonicalToolCall, ThinkingBlock } from '../../canonical/types.ts';
import { documentAsText, fileForUpstream } from './documents.ts';

/*
 * The internal form's messages rendered for an OpenAI-compatible upstream (docs/conversion.md
 * § OpenAI). The extensions never reach the upstream as they are; everything else is OpenAI's own
 * and stays untouched. One pass over the messages finds the first one that needs rendering: a
 * plain OpenAI body comes back as the same array, nothing cloned.
 */

/** What the upstream takes, decided once per request (request.ts). */
export interface MessagePolicy {
  /** OpenAI itself (or Azure): refuses unknown message fields such as `reasoning_content`, wants file names. */
  strict: boolean;
  /** The upstream reads OpenAI's `file` parts (OpenAI, Azure, OpenRouter). */
  files: boolean;
  /**
   * The body was converted from another dialect (the Anthropic or Gemini door): text-only part
   * arrays of system, assistant and tool messages become strings, which every vendor takes
   * (OpenAI clients' own arrays are left as they sent them).
   */
  converted: boolean;
  /** The model takes no system or developer message (o1-mini, o1-preview): they become user messages. */
  noSystem: boolean;
}

type Part = CanonicalPart;
type Message = CanonicalMessage;
type ToolMessage = Extract<Message, { role: 'tool' }>;
type AssistantMessage = Extract<Message, { role: 'assistant' }>;

const partNeedsRender = (part: Part, p: MessagePolicy): boolean =>
  part.type === 'file'
    ? !p.files ||
      part.cache_control !== undefined ||
      (p.strict && !part.file.filename) ||
      (part.file.file_data !== undefined && !part.file.file_data.startsWith('data:'))
    : (part as { cache_control?: unknown }).cache_control !== undefined;

const partsNeedRender = (content: unknown, p: MessagePolicy): boolean => {
  if (!Array.isArray(content)) return false;
  for (const part of content as Part[]) if (partNeedsRender(part, p)) return true;
  return false;
};

const onlyText = (content: Part[]): boolean => content.every((part) => part.type === 'text');

function needsRender(m: Message, p: MessagePolicy): boolean {
  switch (m.role) {
    case 'system':
    case 'developer':
      return p.noSystem || (p.converted && Array.isArray(m.content)) || partsNeedRender(m.content, p);
    case 'user':
      return partsNeedRender(m.content, p);
    case 'tool':
      return (
        m.is_error !== undefined ||
        (p.strict && m.name !== undefined) ||
        (Array.isArray(m.content) && (p.converted || !onlyText(m.content) || partsNeedRender(m.content, p)))
      );
    case 'assistant':
      return (
        m.thinking_blocks !== undefined ||
        (m.reasoning_content !== undefined && (p.strict || (p.converted && !m.tool_calls?.length))) ||
        (m.reasoning_details !== undefined && (p.strict || p.converted)) ||
        (p.strict && 'reasoning' in m) ||
        (p.converted && Array.isArray(m.content)) ||
        partsNeedRender(m.content, p) ||
        (m.tool_calls?.some((c) => c.thought_signature !== undefined) ?? false)
      );
    default:
      return false;
  }
}

/** The messages for the upstream: the same array when none needs rendering. */
export function renderMessages(messages: Message[], p: MessagePolicy): Message[] {
  let out: Message[] | undefined;
  /** Images and documents of the current run of tool messages, for the user message after it. */
  let attached: Part[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (out === undefined) {
      if (!needsRender(m, p)) continue;
      out = messages.slice(0, i);
    }
    if (m.role !== 'tool' && attached.length > 0) {
      out.push({ role: 'user', content: attached });
      attached = [];
    }
    out.push(needsRender(m, p) ? renderMessage(m, p, attached) : m);
  }
  if (out === undefined) return messages;
  if (attached.length > 0) out.push({ role: 'user', content: attached });
  return out;
}

function renderMessage(m: Message, p: MessagePolicy, attached: Part[]): Message {
  switch (m.role) {
    case 'system':
    case 'developer': {
      const content = Array.isArray(m.content) ? renderParts(m.content, p) : m.content;
      // Anthropic's system blocks are separate paragraphs: a blank line keeps them apart.
      const text =
        typeof content !== 'string' && onlyText(content) && (p.converted || p.noSystem)
          ? joinText(content, '\n\n')
          : content;
      return p.noSystem ? { role: 'user', content: text } : { role: m.role, content: text };
    }
    case 'user': {
      if (!Array.isArray(m.content)) return m;
      const parts = renderParts(m.content, p);
      // A lone text part (what a cache hint left) reads as a string, as the doors write one.
      const [only] = parts;
      return { ...m, content: p.converted && parts.length === 1 && only.type === 'text' ? only.text : parts };
    }
    case 'tool':
      return renderTool(m, p, attached);
    case 'assistant':
      return renderAssistant(m, p);
  }
}

const joinText = (parts: Part[], separator: string): string =>
  parts.map((part) => (part.type === 'text' ? part.text : '')).join(separator);

/** Parts without cache hints (a cache hint, not content: OpenAI caches prefixes by itself), documents fitted. */
function renderParts(parts: Part[], p: MessagePolicy): Part[] {
  return parts.map((part) => {
    if (part.type === 'file') {
      const { cache_control: _, ...file } = part;
      return p.files ? fileForUpstream(file, p.strict) : documentAsText(file);
    }
    if ((part as { cache_control?: unknown }).cache_control === undefined) return part;
    const { cache_control: _, ...rest } = part as Part & { cache_control?: unknown };
    return rest as Part;
  });
}

/**
 * OpenAI's tool messages hold text only. A tool result's images (a screenshot Claude Code took)
 * and documents go to the user message placed after the run of tool messages, labelled with the
 * call they came from; the tool message says they are there. `is_error` becomes an "Error: "
 * prefix, the way OpenAI's own agents report a failed tool.
 */
function renderTool(m: ToolMessage, p: MessagePolicy, attached: Part[]): ToolMessage {
  let text: string;
  if (typeof m.content === 'string') text = m.content;
  else {
    const texts: string[] = [];
    const moved: Part[] = [];
    for (const part of m.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'file' && !p.files) texts.push(documentAsText(part).text);
      else moved.push(part);
    }
    text = texts.join('\n');
    if (moved.length > 0) {
      attached.push({ type: 'text', text: `Attached by the tool result ${m.tool_call_id}:` }, ...renderParts(moved, p));
      const images = moved.every((part) => part.type === 'image_url');
      const noun = images ? 'image' : 'attachment';
      const note = moved.length === 1 ? `(${noun} attached below)` : `(${moved.length} ${noun}s attached below)`;
      text = text ? `${text}\n${note}` : note;
    }
  }
  if (m.is_error) text = `Error: ${text}`;
  const out: ToolMessage = { role: 'tool', tool_call_id: m.tool_call_id, content: text };
  if (m.name !== undefined && !p.strict) out.name = m.name;
  return out;
}

/**
 * Signed thinking blocks and Gemini signatures mean nothing to an OpenAI-compatible upstream and
 * go. The reasoning text of a tool-call turn stays for vendors (DeepSeek and Kimi refuse turn 2
 * of a thinking tool loop without it), taken from the thinking blocks when the message has no
 * text of its own; when the vendor's own `reasoning_details` were recalled for the turn
 * (reasoning-field.ts) they go instead, holding the same text and what continues it (never both).
 * On other turns a converted body leaves it out (DeepSeek ignores it there, its older reasoner
 * refused it); an OpenAI client's own fields (`reasoning_content`, `reasoning`,
 * `reasoning_details`) are left as sent. OpenAI itself refuses them all: they go everywhere.
 */
function renderAssistant(m: AssistantMessage, p: MessagePolicy): AssistantMessage {
  const { thinking_blocks, reasoning_content, reasoning_details, ...rest } = m;
  const out: AssistantMessage = { ...rest };
  if (p.strict) delete (out as { reasoning?: unknown }).reasoning;
  else if (!p.converted && reasoning_details !== undefined) out.reasoning_details = reasoning_details;
  if (Array.isArray(m.content)) {
    const parts = renderParts(m.content, p);
    out.content = p.converted && onlyText(parts) ? joinText(parts, '') : parts;
  }
  if (m.tool_calls?.some((c) => c.thought_signature !== undefined)) out.tool_calls = m.tool_calls.map(withoutSignature);
  // A turn that was only thinking: OpenAI refuses an assistant message with neither content nor calls.
  if (out.content === null && !out.tool_calls?.length) out.content = '';
  if (!p.strict && p.converted && reasoning_details?.length && m.tool_calls?.length)
    out.reasoning_details = reasoning_details;
  else if (!p.strict) {
    const reasoning = m.tool_calls?.length
      ? reasoning_content || thinkingText(thinking_blocks)
      : p.converted
        ? undefined
        : reasoning_content;
    if (reasoning !== undefined) out.reasoning_content = reasoning;
  }
  return out;
}

function withoutSignature(c: CanonicalToolCall): CanonicalToolCall {
  if (c.thought_signature === undefined) return c;
  const { thought_signature: _, ...rest } = c;
  return rest;
}

function thinkingText(blocks: ThinkingBlock[] | undefined): string | undefined {
  const text = blocks
    ?.map((b) => (b.type === 'thinking' ? b.thinking : ''))
    .filter(Boolean)
    .join('\n');
  return text || undefined;
}
