import type { CanonicalMessage, CanonicalPart, CanonicalToolCall } from '../../../canonical/types.ts';
import { refusal } from '../../../errors.ts';
import { type Refuse, type ResponsesItem, type ResponsesPart, textOfContent } from './shapes.ts';
import { BUILT_IN, customArguments } from './tools-and-format.ts';

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
