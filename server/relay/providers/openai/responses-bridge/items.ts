import { randomBytes } from 'node:crypto';
import type {
  CanonicalMessage,
  CanonicalPart,
  CanonicalTool,
  CanonicalToolCall,
  CanonicalUsage,
} from '../../../canonical/types.ts';
import { refusal, type RelayError } from '../../../errors.ts';

/*
 * OpenAI Responses items <-> canonical chat messages: the one mapping both directions of the
 * bridge use. The Responses front door reads a client's `input` with itemsToMessages() and writes
 * its answer with assistantToItems(); the reverse bridge (a chat client on a Responses-only model)
 * writes the upstream's `input` with messagesToItems() and reads its `output` with itemsToMessages().
 */

/** A content part of a Responses message or tool output, as far as the mapping reads it. */
export interface ResponsesPart {
  type?: string;
  text?: string;
  refusal?: string;
  image_url?: string | null;
  detail?: string;
  file_id?: string | null;
  file_data?: string;
  file_url?: string;
  filename?: string;
  input_audio?: { data: string; format: string };
}

/** One Responses item (input or output), as far as the mapping reads it. */
export interface ResponsesItem {
  type?: string;
  id?: string;
  role?: string;
  status?: string;
  content?: string | ResponsesPart[] | null;
  call_id?: string;
  name?: string;
  arguments?: string;
  /** A custom tool's free-form input. */
  input?: string;
  output?: string | ResponsesPart[];
  summary?: { type?: string; text?: string }[];
  encrypted_content?: string | null;
}

/** A Responses function tool (flat: no `function` wrapper) or a built-in tool. */
export interface ResponsesTool {
  type?: string;
  name?: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
  format?: { type?: string; syntax?: string; definition?: string };
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

/** Where a conversion failure goes: collected (the door defers it to converted channels) or thrown. */
export type Refuse = (err: RelayError) => void;
export const throwRefusal: Refuse = (err) => {
  throw err;
};

/*
 * Custom tools (free-form input, e.g. Codex CLI's apply_patch) are emulated on chat upstreams as a
 * function taking one string, `input`; a call to one comes back as a custom_tool_call.
 */
const CUSTOM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input of the tool.' } },
  required: ['input'],
  additionalProperties: false,
};

/** A custom tool call's canonical arguments. */
export const customArguments = (input: string | undefined) => JSON.stringify({ input: input ?? '' });

/** A custom tool call's input, from the canonical arguments of its emulating function. */
export function customInput(args: string): string {
  try {
    const o = JSON.parse(args) as { input?: unknown };
    if (typeof o?.input === 'string') return o.input;
  } catch {
    // A model that answered something else than the one-string object: its arguments are the input.
  }
  return args;
}

const BUILT_IN = (type: string) =>
  refusal(
    400,
    `The built-in tool "${type}" runs on OpenAI's servers; this model's channel does not speak the Responses API, so only function and custom tools can be used.`,
    `内置工具 "${type}" 只能在 OpenAI 的服务器上运行；此模型的渠道不支持 Responses API，只能使用 function 与 custom 工具。`,
    'unsupported_tool',
  );

/** Responses tools -> canonical tools; built-in tools are refused. Returns the custom tools' names too. */
export function toolsToCanonical(
  tools: ResponsesTool[],
  refuse: Refuse,
): { tools: CanonicalTool[]; custom: Set<string> } {
  const out: CanonicalTool[] = [];
  const custom = new Set<string>();
  for (const t of tools) {
    if (t.type === 'function' && t.name) {
      out.push({
        type: 'function',
        function: {
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          parameters: t.parameters ?? { type: 'object', properties: {} },
          ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
        },
      });
    } else if (t.type === 'custom' && t.name) {
      custom.add(t.name);
      const f = t.format;
      const grammar =
        f?.type === 'grammar' && f.definition
          ? `\n\nThe input must follow this ${f.syntax ?? ''} grammar:\n${f.definition}`
          : '';
      out.push({
        type: 'function',
        function: {
          name: t.name,
          description: `${t.description ?? ''}${grammar}`.trim(),
          parameters: CUSTOM_PARAMETERS,
        },
      });
    } else refuse(BUILT_IN(String(t.type ?? 'unknown')));
  }
  return { tools: out, custom };
}

/** Canonical tools -> Responses function tools. Chat's tools are lax unless they say `strict`, Responses' strict by default. */
export const toolsToResponses = (tools: CanonicalTool[]): ResponsesTool[] =>
  tools.map((t) => ({
    type: 'function',
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    parameters: t.function.parameters ?? { type: 'object', properties: {} },
    strict: t.function.strict ?? false,
  }));

type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** Responses tool_choice -> chat's (allowed_tools narrows `tools` to the allowed ones). */
export function toolChoiceToCanonical(
  choice: unknown,
  tools: CanonicalTool[],
  refuse: Refuse,
): { choice?: ChatToolChoice; tools: CanonicalTool[] } {
  if (choice === undefined || choice === null) return { tools };
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { choice, tools };
  const c = choice as { type?: string; name?: string; mode?: string; tools?: { type?: string; name?: string }[] };
  if ((c.type === 'function' || c.type === 'custom') && c.name)
    return { choice: { type: 'function', function: { name: c.name } }, tools };
  if (c.type === 'allowed_tools' && Array.isArray(c.tools)) {
    const allowed = new Set(c.tools.map((t) => t.name));
    return {
      choice: c.mode === 'required' ? 'required' : 'auto',
      tools: tools.filter((t) => allowed.has(t.function.name)),
    };
  }
  refuse(BUILT_IN(String(c.type ?? 'unknown')));
  return { tools };
}

/** Chat tool_choice -> Responses'. */
export function toolChoiceToResponses(choice: unknown): unknown {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const name = (choice as { function?: { name?: string } } | null)?.function?.name;
  return name ? { type: 'function', name } : undefined;
}

type ResponseFormat = NonNullable<import('../../../canonical/types.ts').CanonicalRequest['response_format']>;

/** Responses `text.format` -> chat `response_format` (plain text is the default: nothing). */
export function formatToCanonical(format: unknown): ResponseFormat | undefined {
  const f = format as
    | { type?: string; name?: string; schema?: Record<string, unknown>; strict?: boolean | null; description?: string }
    | undefined;
  if (f?.type === 'json_object') return { type: 'json_object' };
  if (f?.type === 'json_schema')
    return {
      type: 'json_schema',
      json_schema: {
        name: f.name ?? 'response',
        ...(f.schema ? { schema: f.schema } : {}),
        ...(typeof f.strict === 'boolean' ? { strict: f.strict } : {}),
      },
    };
  return undefined;
}

/** Chat `response_format` -> Responses `text.format`. */
export function formatToResponses(format: unknown): Record<string, unknown> | undefined {
  const f = format as { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  if (f?.type === 'json_object') return { type: 'json_object' };
  if (f?.type === 'json_schema' && f.json_schema)
    return {
      type: 'json_schema',
      name: f.json_schema.name ?? 'response',
      schema: f.json_schema.schema ?? {},
      ...(typeof f.json_schema.strict === 'boolean' ? { strict: f.json_schema.strict } : {}),
    };
  return undefined;
}

// ---------------------------------------------------------------- items -> messages

const unsupportedPart = (what: string) =>
  refusal(
    400,
    `${what} cannot be carried to this model's channel (it does not speak the Responses API); send the content inline.`,
    `${what} 无法转发到此模型的渠道（该渠道不支持 Responses API）；请直接内联发送内容。`,
  );

/** Responses content parts -> canonical parts (input and output text alike). */
function partsToCanonical(parts: ResponsesPart[], refuse: Refuse): CanonicalPart[] {
  const out: CanonicalPart[] = [];
  for (const p of parts) {
    if (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text' || p.type === 'summary_text')
      out.push({ type: 'text', text: p.text ?? '' });
    else if (p.type === 'refusal') out.push({ type: 'text', text: p.refusal ?? '' });
    else if (p.type === 'input_image') {
      if (p.image_url)
        out.push({ type: 'image_url', image_url: { url: p.image_url, ...(p.detail ? { detail: p.detail } : {}) } });
      else refuse(unsupportedPart('An input_image given by file_id'));
    } else if (p.type === 'input_file') {
      if (p.file_data)
        out.push({
          type: 'file',
          file: { file_data: fileDataUrl(p.file_data, p.filename), ...(p.filename ? { filename: p.filename } : {}) },
        });
      else refuse(unsupportedPart(p.file_url ? 'An input_file given by file_url' : 'An input_file given by file_id'));
    } else if (p.type === 'input_audio' && p.input_audio) out.push({ type: 'input_audio', input_audio: p.input_audio });
    else refuse(unsupportedPart(`A content part of type "${p.type}"`));
  }
  return out;
}

/** Responses takes a file's data as a data URL or as bare base64; the canonical part wants a data URL. */
function fileDataUrl(data: string, filename?: string): string {
  if (data.startsWith('data:')) return data;
  const type = filename?.toLowerCase().endsWith('.pdf') !== false ? 'application/pdf' : 'text/plain';
  return `data:${type};base64,${data}`;
}

/** One string when the parts are one text, else the parts. */
function simplify(parts: CanonicalPart[]): string | CanonicalPart[] {
  if (parts.length === 0) return '';
  if (parts.length === 1 && parts[0].type === 'text' && !parts[0].cache_control) return parts[0].text;
  return parts;
}

const contentOf = (c: ResponsesItem['content'] | ResponsesItem['output'], refuse: Refuse): string | CanonicalPart[] =>
  typeof c === 'string' ? c : Array.isArray(c) ? simplify(partsToCanonical(c, refuse)) : '';

const textOfContent = (c: string | CanonicalPart[]): string =>
  typeof c === 'string' ? c : c.map((p) => (p.type === 'text' ? p.text : '')).join('');

/**
 * Responses items -> canonical messages. Items of one assistant turn (reasoning, message,
 * function_call: what one response output) become one assistant message; each tool output its
 * own tool message. Reasoning keeps its summary text only: encrypted reasoning belongs to OpenAI,
 * which a converted request never reaches (a native one is relayed as it came).
 */
export function itemsToMessages(items: ResponsesItem[], refuse: Refuse): CanonicalMessage[] {
  const out: CanonicalMessage[] = [];
  let text: string[] = [];
  let reasoning: string[] = [];
  let calls: CanonicalToolCall[] = [];
  const flush = () => {
    if (text.length || calls.length) {
      const m: CanonicalMessage = { role: 'assistant', content: text.length ? text.join('') : null };
      if (reasoning.length) m.reasoning_content = reasoning.join('\n\n');
      if (calls.length) m.tool_calls = calls;
      out.push(m);
    }
    text = [];
    reasoning = [];
    calls = [];
  };
  for (const item of items) {
    const type = item.type ?? (item.role ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const content = contentOf(item.content, refuse);
        if (item.role === 'assistant') {
          // Text after the turn's tool calls starts another assistant message (chat puts text first).
          if (calls.length) flush();
          text.push(textOfContent(content));
        } else {
          flush();
          const role = item.role === 'user' ? 'user' : 'system';
          out.push({ role, content } as CanonicalMessage);
        }
        break;
      }
      case 'reasoning': {
        const summary = (item.summary ?? []).map((s) => s.text ?? '').filter(Boolean);
        const raw = Array.isArray(item.content) ? item.content.map((c) => c.text ?? '').filter(Boolean) : [];
        const said = summary.length ? summary : raw;
        if (said.length) reasoning.push(said.join('\n\n'));
        break;
      }
      case 'function_call':
        calls.push({
          id: item.call_id ?? '',
          type: 'function',
          function: { name: item.name ?? '', arguments: item.arguments ?? '{}' },
        });
        break;
      case 'custom_tool_call':
        calls.push({
          id: item.call_id ?? '',
          type: 'function',
          function: { name: item.name ?? '', arguments: customArguments(item.input) },
        });
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        flush();
        out.push({ role: 'tool', tool_call_id: item.call_id ?? '', content: contentOf(item.output, refuse) });
        break;
      case 'item_reference':
        refuse(
          refusal(
            400,
            "item_reference points at items stored by OpenAI; this model's channel does not speak the Responses API. Send the items themselves, or use previous_response_id with a response this gateway stored.",
            'item_reference 指向 OpenAI 保存的条目，而此模型的渠道不支持 Responses API。请直接发送条目本身，或对本网关保存的回复使用 previous_response_id。',
          ),
        );
        break;
      default:
        refuse(BUILT_IN(String(type ?? 'unknown')));
    }
  }
  flush();
  return out;
}

// ---------------------------------------------------------------- messages -> items

export interface AssistantLike {
  content?: string | CanonicalPart[] | null;
  reasoning_content?: string | null;
  /** OpenRouter-style vendors' name for the same. */
  reasoning?: string | null;
  refusal?: string | null;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
}

export interface ItemsWriting {
  /** Output items carry ids and a status (an answer); input items do not (a request). */
  ids?: boolean;
  /** Whether the reasoning text becomes a reasoning item (answers only: OpenAI refuses foreign ones). */
  reasoning?: boolean;
  custom?: ReadonlySet<string>;
}

/** One assistant message -> Responses items: reasoning, message (output_text), function/custom tool calls. */
export function assistantToItems(m: AssistantLike, o: ItemsWriting = {}): ResponsesItem[] {
  const items: ResponsesItem[] = [];
  const done = o.ids ? { status: 'completed' } : {};
  const reasoning = m.reasoning_content || m.reasoning;
  if (o.reasoning && reasoning)
    items.push({ type: 'reasoning', id: newId('rs'), summary: [{ type: 'summary_text', text: reasoning }] });
  const text = m.content === null || m.content === undefined ? '' : textOfContent(m.content);
  if (text !== '' || m.refusal) {
    const part = m.refusal ? { type: 'refusal', refusal: m.refusal } : { type: 'output_text', text, annotations: [] };
    items.push({
      type: 'message',
      ...(o.ids ? { id: newId('msg') } : {}),
      ...done,
      role: 'assistant',
      content: [part as ResponsesPart],
    });
  }
  for (const c of m.tool_calls ?? []) {
    const name = c.function?.name ?? '';
    const args = c.function?.arguments ?? '';
    items.push(
      o.custom?.has(name)
        ? {
            type: 'custom_tool_call',
            ...(o.ids ? { id: newId('ctc') } : {}),
            ...done,
            call_id: c.id ?? '',
            name,
            input: customInput(args),
          }
        : {
            type: 'function_call',
            ...(o.ids ? { id: newId('fc') } : {}),
            ...done,
            call_id: c.id ?? '',
            name,
            arguments: args,
          },
    );
  }
  return items;
}

/** Canonical parts -> Responses input parts. */
function partsToResponses(parts: CanonicalPart[]): ResponsesPart[] {
  return parts.map((p): ResponsesPart => {
    switch (p.type) {
      case 'text':
        return { type: 'input_text', text: p.text };
      case 'image_url':
        return { type: 'input_image', image_url: p.image_url.url, detail: p.image_url.detail ?? 'auto' };
      case 'file':
        return p.file.file_data
          ? {
              type: 'input_file',
              file_data: p.file.file_data,
              ...(p.file.filename ? { filename: p.file.filename } : {}),
            }
          : { type: 'input_file', file_id: p.file.file_id ?? null };
      case 'input_audio':
        return { type: 'input_audio', input_audio: p.input_audio };
    }
  });
}

const inputContent = (c: string | CanonicalPart[] | null | undefined) =>
  typeof c === 'string' || c === null || c === undefined ? (c ?? '') : partsToResponses(c);

/** Canonical messages -> Responses input items (a request: no ids, no reasoning items). */
export function messagesToItems(messages: CanonicalMessage[]): ResponsesItem[] {
  const items: ResponsesItem[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') items.push(...assistantToItems(m));
    else if (m.role === 'tool')
      items.push({ type: 'function_call_output', call_id: m.tool_call_id, output: inputContent(m.content) });
    else items.push({ type: 'message', role: m.role, content: inputContent(m.content) });
  }
  return items;
}

// ---------------------------------------------------------------- usage

export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens?: number;
}

/** Responses usage -> chat usage. */
export const usageToCanonical = (u: ResponsesUsage): CanonicalUsage => ({
  prompt_tokens: u.input_tokens ?? 0,
  completion_tokens: u.output_tokens ?? 0,
  total_tokens: u.total_tokens ?? (u.input_tokens ?? 0) + (u.output_tokens ?? 0),
  prompt_tokens_details: { cached_tokens: u.input_tokens_details?.cached_tokens ?? 0 },
  completion_tokens_details: { reasoning_tokens: u.output_tokens_details?.reasoning_tokens ?? 0 },
});
