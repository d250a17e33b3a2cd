import { z } from 'zod';
import { isEffort } from '../../canonical/reasoning.ts';
import { refusal, type RelayError } from '../../errors.ts';
import type { CacheControl, CanonicalPart, CanonicalReasoning, ThinkingBlock } from '../../canonical/types.ts';

type Source = { type?: string; media_type?: string; data?: string; url?: string; content?: unknown };
type Block = {
  type?: string;
  text?: string;
  source?: Source;
  title?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  cache_control?: CacheControl;
  thinking?: string;
  signature?: string;
  data?: string;
};

/** The Anthropic Messages body as far as the gateway reads it; every other field passes through. */
export const anthropicBody = z.looseObject({
  model: z.string({ message: 'model: Field required' }).min(1, 'model: Field required'),
  max_tokens: z.number({ message: 'max_tokens: Field required' }).int().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() }), { message: 'messages: Field required' }),
  system: z.unknown().optional(),
  stream: z.boolean().optional(),
});
export type AnthropicBody = z.infer<typeof anthropicBody>;

/**
 * The signature the gateway puts on thinking it relays from a non-Anthropic upstream (Anthropic's
 * SDKs and Claude Code expect one on every thinking block and echo it back). Opaque to clients; the
 * door recognises it on the way back and keeps that thinking as text only, never as a signed block.
 */
export const GATEWAY_SIGNATURE = Buffer.from('switchyard:thinking-relayed-from-another-provider').toString('base64');

/**
 * Anthropic fields with no canonical counterpart, dropped when the request is converted for a
 * channel of another protocol (an Anthropic channel gets the client's body as it is), each for
 * its reason (docs/conversion.md § Anthropic front door).
 */
export const DROPPED_WHEN_CONVERTED: Record<string, string> = {
  service_tier: "Anthropic's capacity tier; other providers' tiers are the channel's account setting",
  container: "the id of Anthropic's code-execution container, which exists only on Anthropic",
  context_management: "Anthropic's server-side clearing of old tool results; the full context is sent instead",
  mcp_servers: "Anthropic's MCP connector runs on Anthropic's servers; other upstreams cannot call them",
  inference_geo: "Anthropic's data-residency choice; the channel's region decides elsewhere",
  cache_control: "Anthropic's top-level automatic caching; the block-level cache_control marks are kept",
};

/**
 * Anthropic Messages body -> canonical body (canonical/types.ts), for channels of another
 * protocol and for the relay's pricing: system blocks to a system message of text parts (cache
 * hints kept), content blocks to parts (images, documents as `file` parts), tool_use to
 * tool_calls, tool_result to `tool` messages (text and images, is_error), signed thinking to
 * `thinking_blocks`, `thinking` to `reasoning` (canonical/reasoning.ts).
 */
export function anthropicToOpenAI(body: AnthropicBody): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  const system = systemMessage(body.system);
  if (system) messages.push(system);
  for (const m of body.messages) {
    if (typeof m.content === 'string') {
      messages.push({ role: m.role, content: m.content });
      continue;
    }
    const parts: CanonicalPart[] = [];
    const calls: Record<string, unknown>[] = [];
    const thinking: ThinkingBlock[] = [];
    let reasoning = '';
    for (const b of (Array.isArray(m.content) ? m.content : []) as Block[]) {
      const part = partOf(b);
      if (part) parts.push(part);
      else if (b.type === 'tool_use')
        calls.push({
          id: b.id,
          type: 'function',
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        });
      else if (b.type === 'tool_result')
        // OpenAI wants tool results as their own messages, before any text of the same turn.
        messages.push(toolMessage(b));
      else if (b.type === 'thinking') {
        reasoning += b.thinking ?? '';
        // Thinking the gateway relayed from another provider carries no Anthropic signature: text only.
        if (b.signature && b.signature !== GATEWAY_SIGNATURE)
          thinking.push({ type: 'thinking', thinking: b.thinking ?? '', signature: b.signature });
      } else if (b.type === 'redacted_thinking' && b.data) thinking.push({ type: 'redacted_thinking', data: b.data });
    }
    if (m.role === 'assistant') {
      if (parts.length || calls.length || reasoning || thinking.length)
        messages.push({
          role: 'assistant',
          content: parts.length === 0 ? null : contentOf(parts),
          ...(calls.length ? { tool_calls: calls } : {}),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(thinking.length ? { thinking_blocks: thinking } : {}),
        });
    } else if (parts.length) messages.push({ role: m.role, content: contentOf(parts) });
  }
  const out: Record<string, unknown> = { model: body.model, messages, max_tokens: body.max_tokens };
  for (const k of ['temperature', 'top_p', 'top_k'] as const) if (typeof body[k] === 'number') out[k] = body[k];
  if (Array.isArray(body.stop_sequences)) out.stop = body.stop_sequences;
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const userId = (body.metadata as { user_id?: unknown } | undefined)?.user_id;
  if (typeof userId === 'string') out.user = userId;
  const reasoning = withEffort(reasoningOf(body.thinking), body.output_config);
  if (reasoning) out.reasoning = reasoning;
  const tools = toolsOf(body.tools);
  if (tools.length) out.tools = tools;
  const choice = body.tool_choice as { type?: string; name?: string; disable_parallel_tool_use?: boolean } | undefined;
  if (choice?.type === 'auto') out.tool_choice = 'auto';
  else if (choice?.type === 'any') out.tool_choice = 'required';
  else if (choice?.type === 'none') out.tool_choice = 'none';
  else if (choice?.type === 'tool') out.tool_choice = { type: 'function', function: { name: choice.name } };
  if (choice?.disable_parallel_tool_use) out.parallel_tool_calls = false;
  const format = responseFormatOf(body);
  if (format) out.response_format = format;
  return out;
}

/**
 * Anthropic's structured outputs -> canonical `response_format` json_schema. `output_config.format`
 * is the current field; `output_format` the beta's (structured-outputs-2025-11-13), still read.
 * Anthropic has no schema name: the schema's `title` when it is a valid name, else "output".
 * Anthropic always holds the answer to the schema, so `strict` is asked wherever OpenAI's strict mode
 * takes the schema (every object closed, every property required); elsewhere the schema goes
 * without `strict` rather than be refused. The answer comes back as the message's text.
 */
function responseFormatOf(body: AnthropicBody): Record<string, unknown> | undefined {
  const config = body.output_config as { format?: unknown } | undefined;
  const format = (config?.format ?? body.output_format) as { type?: string; schema?: unknown } | undefined;
  if (format?.type !== 'json_schema' || typeof format.schema !== 'object' || format.schema === null) return undefined;
  const title = (format.schema as { title?: unknown }).title;
  const name = typeof title === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(title) ? title : 'output';
  const strict = closedSchema(format.schema) ? { strict: true } : {};
  return { type: 'json_schema', json_schema: { name, schema: format.schema, ...strict } };
}

/** Whether a JSON Schema meets OpenAI's strict mode: each object closed with all its properties required. */
function closedSchema(s: unknown): boolean {
  if (Array.isArray(s)) return s.every(closedSchema);
  if (typeof s !== 'object' || s === null) return true;
  const o = s as Record<string, unknown>;
  const props = o.properties as Record<string, unknown> | undefined;
  const isObject = o.type === 'object' || (Array.isArray(o.type) && o.type.includes('object')) || props !== undefined;
  if (isObject) {
    if (o.additionalProperties !== false) return false;
    const required = Array.isArray(o.required) ? o.required : [];
    if (Object.keys(props ?? {}).some((k) => !required.includes(k))) return false;
  }
  const nested = [
    ...Object.values(props ?? {}),
    o.items,
    o.anyOf,
    ...Object.values((o.$defs ?? o.definitions ?? {}) as Record<string, unknown>),
  ];
  return nested.every(closedSchema);
}

/**
 * `output_config.effort` (how hard a Claude model works, thinking or not) is, on other upstreams,
 * their reasoning effort; `max` is the table's top. A budget the client set wins, and thinking
 * turned off stays off.
 */
function withEffort(reasoning: CanonicalReasoning | undefined, config: unknown): CanonicalReasoning | undefined {
  const given = (config as { effort?: unknown } | undefined)?.effort;
  const effort = given === 'max' ? 'xhigh' : given;
  if (!isEffort(effort) || reasoning?.effort === 'none' || reasoning?.budget_tokens !== undefined) return reasoning;
  return { ...reasoning, effort };
}

/**
 * `thinking` -> canonical reasoning: a budget asks for reasoning with its text shown; disabled is
 * effort none; adaptive (the model decides how much) is effort medium, the table's middle.
 */
function reasoningOf(thinking: unknown): CanonicalReasoning | undefined {
  const t = thinking as { type?: string; budget_tokens?: unknown } | undefined;
  if (t?.type === 'enabled')
    return typeof t.budget_tokens === 'number'
      ? { budget_tokens: t.budget_tokens, include: true }
      : { effort: 'medium', include: true };
  if (t?.type === 'disabled') return { effort: 'none' };
  if (t?.type === 'adaptive') return { effort: 'medium', include: true };
  return undefined;
}

/** A string `system` is one system message; blocks stay blocks (text parts, cache_control kept). */
function systemMessage(system: unknown): Record<string, unknown> | undefined {
  if (typeof system === 'string') return system ? { role: 'system', content: system } : undefined;
  if (!Array.isArray(system)) return undefined;
  const parts = (system as Block[])
    .filter((b) => b?.type === 'text' && typeof b.text === 'string' && b.text !== '')
    .map((b) => textPart(b));
  return parts.length ? { role: 'system', content: parts } : undefined;
}

/** One plain text part reads as a string (what most providers and the tokenizer expect); more stay parts. */
function contentOf(parts: CanonicalPart[]): string | CanonicalPart[] {
  const [only] = parts;
  return parts.length === 1 && only.type === 'text' && !only.cache_control ? only.text : parts;
}

function textPart(b: Block): CanonicalPart {
  return { type: 'text', text: b.text ?? '', ...(b.cache_control ? { cache_control: b.cache_control } : {}) };
}

/** A content block that is a part of a message (text, image, document); undefined for the others. */
function partOf(b: Block): CanonicalPart | undefined {
  const cache = b.cache_control ? { cache_control: b.cache_control } : {};
  if (b.type === 'text') return textPart(b);
  if (b.type === 'image' && b.source) {
    const url = b.source.type === 'url' ? (b.source.url ?? '') : `data:${b.source.media_type};base64,${b.source.data}`;
    return { type: 'image_url', image_url: { url }, ...cache };
  }
  if (b.type === 'document' && b.source) {
    const file = { file_data: documentData(b.source), ...(b.title ? { filename: b.title } : {}) };
    return { type: 'file', file, ...cache };
  }
  return undefined;
}

/** A document's source as a data URL (PDF, plain text), or its http(s) URL as given. */
function documentData(s: Source): string {
  if (s.type === 'url') return s.url ?? '';
  if (s.type === 'text') return `data:text/plain;base64,${Buffer.from(s.data ?? '').toString('base64')}`;
  if (s.type === 'content') {
    // A custom-content document: its text blocks, in order, as one text document.
    const text = Array.isArray(s.content)
      ? (s.content as Block[]).map((c) => c.text ?? '').join('\n')
      : String(s.content ?? '');
    return `data:text/plain;base64,${Buffer.from(text).toString('base64')}`;
  }
  return `data:${s.media_type ?? 'application/pdf'};base64,${s.data ?? ''}`;
}

/** tool_result -> a `tool` message: its text as a string, or its blocks as parts (screenshots stay images). */
function toolMessage(b: Block): Record<string, unknown> {
  let content: string | CanonicalPart[] = '';
  if (typeof b.content === 'string') content = b.content;
  else if (Array.isArray(b.content)) {
    const parts = (b.content as Block[]).map(partOf).filter((p): p is CanonicalPart => p !== undefined);
    content = parts.length ? contentOf(parts) : '';
  }
  return { role: 'tool', tool_call_id: b.tool_use_id, content, ...(b.is_error ? { is_error: true } : {}) };
}

type AnthropicTool = { type?: string; name?: string; description?: string; input_schema?: unknown };

const isClientTool = (t: AnthropicTool) => Boolean(t.name) && (t.type === undefined || t.type === 'custom');

/**
 * Client tools become function tools. Anthropic's own tools (a `type` such as web_search_20250305,
 * bash_20250124, text_editor_*) run on or are defined by Anthropic: another upstream has no such
 * tool, so they are left out of a converted request (docs/conversion.md) and reported (serverToolsOf).
 */
function toolsOf(tools: unknown): Record<string, unknown>[] {
  if (!Array.isArray(tools)) return [];
  return (tools as AnthropicTool[]).filter(isClientTool).map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
}

/** The types of the Anthropic tools a converted request leaves out (each once), for the caller to see. */
export function serverToolsOf(body: AnthropicBody): string[] {
  if (!Array.isArray(body.tools)) return [];
  return [...new Set((body.tools as AnthropicTool[]).filter((t) => !isClientTool(t)).map((t) => String(t.type)))];
}

/**
 * Why a request cannot be converted when its tool_choice forces one of Anthropic's own tools (Claude
 * Code's WebSearch asks `{type: "tool", name: "web_search"}` with web_search_20250305 declared): the
 * tool is left out elsewhere, and a forced call to it cannot be honoured. An Anthropic channel serves it.
 */
export function forcedServerTool(body: AnthropicBody): RelayError | undefined {
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  if (choice?.type !== 'tool' || !Array.isArray(body.tools)) return undefined;
  const tool = (body.tools as AnthropicTool[]).find((t) => t.name === choice.name);
  if (!tool || isClientTool(tool)) return undefined;
  const type = String(tool.type);
  return refusal(
    400,
    `tool_choice requires Anthropic's server tool "${type}" (${String(tool.name)}), which runs on Anthropic's servers; this model's channel is not Anthropic, so the tool cannot be used. Use a Claude model on an Anthropic channel.`,
    `tool_choice 要求使用 Anthropic 的服务端工具 "${type}"（${String(tool.name)}），它只能在 Anthropic 的服务器上运行；此模型的渠道不是 Anthropic，无法使用该工具。请改用 Anthropic 渠道的 Claude 模型。`,
    'unsupported_tool',
  );
}

/**
 * The body relayed natively to an Anthropic channel, without the thinking blocks the gateway
 * signed itself (Anthropic would refuse their signature): the client's body otherwise unchanged.
 */
export function withoutGatewayThinking(body: AnthropicBody): AnthropicBody {
  const signedHere = (b: Block) => b?.type === 'thinking' && b.signature === GATEWAY_SIGNATURE;
  if (!body.messages.some((m) => Array.isArray(m.content) && (m.content as Block[]).some(signedHere))) return body;
  return {
    ...body,
    messages: body.messages.map((m) =>
      Array.isArray(m.content) ? { ...m, content: (m.content as Block[]).filter((b) => !signedHere(b)) } : m,
    ),
  };
}
