import { z } from 'zod';
import { textOfBlocks } from '../../providers/anthropic/request.ts';

type Block = {
  type?: string;
  text?: string;
  source?: { type?: string; media_type?: string; data?: string; url?: string };
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
};

/** The Anthropic Messages body as far as the gateway reads it; every other field passes through. */
export const anthropicBody = z.looseObject({
  model: z.string({ message: 'model: Field required' }).min(1, 'model: Field required'),
  max_tokens: z.number({ message: 'max_tokens: Field required' }).int().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() }), { message: 'messages: Field required' }),
  system: z.unknown().optional(),
  stream: z.boolean().optional(),
});

/**
 * Anthropic Messages body -> canonical OpenAI chat body, for channels of another
 * protocol and for the relay's pricing: system to a system message, blocks to
 * parts, tool_use to tool_calls, tool_result to `tool` messages, images to data URLs.
 */
export function anthropicToOpenAI(body: z.infer<typeof anthropicBody>): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  const system = textOfBlocks(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of body.messages) {
    if (typeof m.content === 'string') {
      messages.push({ role: m.role, content: m.content });
      continue;
    }
    const blocks = (Array.isArray(m.content) ? m.content : []) as Block[];
    const parts: Record<string, unknown>[] = [];
    const calls: Record<string, unknown>[] = [];
    for (const b of blocks) {
      if (b.type === 'text') parts.push({ type: 'text', text: b.text ?? '' });
      else if (b.type === 'image' && b.source) {
        const url = b.source.type === 'url' ? b.source.url : `data:${b.source.media_type};base64,${b.source.data}`;
        parts.push({ type: 'image_url', image_url: { url } });
      } else if (b.type === 'tool_use')
        calls.push({
          id: b.id,
          type: 'function',
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        });
      else if (b.type === 'tool_result')
        // OpenAI wants tool results as their own messages, before any text of the same turn.
        messages.push({ role: 'tool', tool_call_id: b.tool_use_id, content: textOfBlocks(b.content) });
    }
    const onlyText = parts.every((p) => p.type === 'text');
    const content = onlyText ? parts.map((p) => p.text).join('') : parts;
    if (m.role === 'assistant') {
      if (parts.length || calls.length)
        messages.push({
          role: 'assistant',
          content: onlyText && content === '' ? null : content,
          ...(calls.length ? { tool_calls: calls } : {}),
        });
    } else if (parts.length) messages.push({ role: m.role, content });
  }
  const out: Record<string, unknown> = { model: body.model, messages, max_tokens: body.max_tokens };
  for (const k of ['temperature', 'top_p'] as const) if (typeof body[k] === 'number') out[k] = body[k];
  if (Array.isArray(body.stop_sequences)) out.stop = body.stop_sequences;
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const userId = (body.metadata as { user_id?: unknown } | undefined)?.user_id;
  if (typeof userId === 'string') out.user = userId;
  if (Array.isArray(body.tools))
    out.tools = (body.tools as { name?: string; description?: string; input_schema?: unknown }[])
      .filter((t) => t.name)
      .map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.input_schema },
      }));
  const choice = body.tool_choice as { type?: string; name?: string; disable_parallel_tool_use?: boolean } | undefined;
  if (choice?.type === 'auto') out.tool_choice = 'auto';
  else if (choice?.type === 'any') out.tool_choice = 'required';
  else if (choice?.type === 'none') out.tool_choice = 'none';
  else if (choice?.type === 'tool') out.tool_choice = { type: 'function', function: { name: choice.name } };
  if (choice?.disable_parallel_tool_use) out.parallel_tool_calls = false;
  return out;
}
