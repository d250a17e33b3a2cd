import type { CanonicalMessage, CanonicalPart, CanonicalTool } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';
import { textOf } from '../shared/images.ts';

/*
 * The internal (OpenAI chat) body as Hunyuan's ChatCompletions (API 3.0, version 2023-09-01) takes it:
 * PascalCase fields, `Messages[{Role, Content | Contents, ToolCalls, ToolCallId}]`, tools as
 * `Tools[{Type, Function{Name, Description, Parameters}}]` with the parameters as a JSON string.
 * Tencent refuses any parameter it does not know (UnknownParameter), so OpenAI fields without a
 * Hunyuan twin are left out; a field the client spelled in PascalCase (EnableEnhancement, Seed...)
 * is Hunyuan's own and passes as it came.
 */

type Json = Record<string, unknown>;

interface HunyuanMessage {
  Role: string;
  Content?: string;
  Contents?: Json[];
  ToolCalls?: Json[];
  ToolCallId?: string;
}

/** OpenAI parts -> Hunyuan's `Contents` (text and image_url; the vision models read them). */
function contentsOf(parts: CanonicalPart[]): Json[] {
  return parts.flatMap((p): Json[] => {
    if (p.type === 'text') return [{ Type: 'text', Text: p.text }];
    if (p.type === 'image_url') return [{ Type: 'image_url', ImageUrl: { Url: p.image_url.url } }];
    throw refusal(
      400,
      `Tencent Hunyuan does not take '${p.type}' content parts`,
      `腾讯混元不支持 '${p.type}' 类型的内容`,
      'unsupported_content',
    );
  });
}

/** Content as `Content` (text) or `Contents` (when there is an image). */
function withContent(role: string, content: unknown): HunyuanMessage {
  if (Array.isArray(content) && content.some((p: CanonicalPart) => p?.type !== 'text'))
    return { Role: role, Contents: contentsOf(content as CanonicalPart[]) };
  return { Role: role, Content: textOf(content) };
}

function toHunyuanMessage(m: CanonicalMessage): HunyuanMessage {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { Role: 'system', Content: textOf(m.content) };
    case 'user':
      return withContent('user', m.content);
    case 'tool':
      return { Role: 'tool', Content: textOf(m.content), ToolCallId: m.tool_call_id };
    case 'assistant': {
      const out: HunyuanMessage = { Role: 'assistant', Content: textOf(m.content) };
      if (m.tool_calls?.length)
        out.ToolCalls = m.tool_calls.map((c) => ({
          Id: c.id,
          Type: 'function',
          Function: { Name: c.function.name, Arguments: c.function.arguments || '{}' },
        }));
      return out;
    }
  }
}

/**
 * Hunyuan wants the system message first and user / assistant turns alternating: system messages
 * join into the first, and consecutive user messages into one (their texts or parts in order).
 */
function joinTurns(messages: HunyuanMessage[]): HunyuanMessage[] {
  const system = messages.filter((m) => m.Role === 'system');
  const out: HunyuanMessage[] = system.length
    ? [{ Role: 'system', Content: system.map((m) => m.Content).join('\n\n') }]
    : [];
  for (const m of messages) {
    if (m.Role === 'system') continue;
    const last = out[out.length - 1];
    if (m.Role === 'user' && last?.Role === 'user') {
      if (last.Contents || m.Contents) {
        const asParts = (x: HunyuanMessage) => x.Contents ?? [{ Type: 'text', Text: x.Content ?? '' }];
        out[out.length - 1] = { Role: 'user', Contents: [...asParts(last), ...asParts(m)] };
      } else last.Content = `${last.Content ?? ''}\n\n${m.Content ?? ''}`;
      continue;
    }
    out.push(m);
  }
  return out;
}

const hunyuanTool = (t: CanonicalTool) => ({
  Type: 'function',
  Function: {
    Name: t.function.name,
    ...(t.function.description ? { Description: t.function.description } : {}),
    Parameters: JSON.stringify(t.function.parameters ?? { type: 'object', properties: {} }),
  },
});

/** tool_choice -> ToolChoice ('none' | 'auto' | 'custom' with CustomTool); 'required' has no twin and means auto. */
function toolChoiceOf(choice: unknown, tools: CanonicalTool[]): Json {
  if (choice === 'none') return { ToolChoice: 'none' };
  const named = (choice as { function?: { name?: string } } | undefined)?.function?.name;
  const tool = named ? tools.find((t) => t.function.name === named) : undefined;
  if (tool) return { ToolChoice: 'custom', CustomTool: hunyuanTool(tool) };
  return choice === undefined ? {} : { ToolChoice: 'auto' };
}

/** The ChatCompletions body for an internal chat body (the model already the upstream's). */
export function toHunyuanBody(body: Json, model: string, stream: boolean): Json {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as CanonicalMessage[];
  const out: Json = { Model: model, Messages: joinTurns(messages.map(toHunyuanMessage)), Stream: stream };
  if (typeof body.temperature === 'number') out.Temperature = body.temperature;
  if (typeof body.top_p === 'number') out.TopP = body.top_p;
  if (typeof body.seed === 'number') out.Seed = body.seed;
  const stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (Array.isArray(stop) && stop.length) out.Stop = stop;
  const tools = (Array.isArray(body.tools) ? body.tools : []) as CanonicalTool[];
  const functions = tools.filter((t) => t?.type === 'function');
  if (functions.length && body.tool_choice !== 'none') {
    out.Tools = functions.map(hunyuanTool);
    Object.assign(out, toolChoiceOf(body.tool_choice, functions));
  }
  for (const [k, v] of Object.entries(body)) if (/^[A-Z]/.test(k) && !(k in out)) out[k] = v;
  return out;
}

/** GetEmbedding's body: `Input` for one text, `Inputs` for several (Hunyuan's embedding model is fixed). */
export function toHunyuanEmbeddingBody(body: Json): Json {
  const input = body.input;
  if (typeof input === 'string') return { Input: input };
  if (Array.isArray(input) && input.every((s) => typeof s === 'string')) return { Inputs: input };
  throw refusal(
    400,
    'Tencent Hunyuan embeddings take a string or an array of strings as input',
    '腾讯混元向量接口的 input 须为字符串或字符串数组',
    'invalid_request',
  );
}
