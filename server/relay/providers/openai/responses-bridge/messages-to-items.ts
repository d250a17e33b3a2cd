import type { CanonicalMessage, CanonicalPart } from '../../../canonical/types.ts';
import { newId, type ResponsesItem, type ResponsesPart, textOfContent } from './shapes.ts';
import { customInput } from './tools-and-format.ts';

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
