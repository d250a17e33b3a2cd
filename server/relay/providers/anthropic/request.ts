import type { AttemptContext } from '../types.ts';
import { inlineImage, parseArgs, textOf } from '../shared/images.ts';

type Block = Record<string, unknown>;
interface OpenAIMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  tool_call_id?: string;
}
interface OpenAITool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

/** OpenAI fields that have an Anthropic counterpart (converted) or none (dropped: Anthropic rejects unknown keys). */
const OPENAI_ONLY = [
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'stream_options',
  'user',
  'n',
  'reasoning_effort',
  'response_format',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'functions',
  'function_call',
  'modalities',
  'store',
];

/** The text of an Anthropic string-or-blocks field (a system prompt, a tool result): its text blocks joined. */
export const textOfBlocks = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? (c as { type?: string; text?: string }[]).map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('')
      : '';

/** `-thinking` names ask the thinking adapter for extended thinking (relay.md §8). */
export const THINKING_SUFFIX = '-thinking';

/** The model a `-thinking` name stands for (other names as they are). */
export const baseModel = (m: string) => (m.endsWith(THINKING_SUFFIX) ? m.slice(0, -THINKING_SUFFIX.length) : m);

/** claude.default_max_tokens: the model's entry, else `default`, else 8192. */
export function defaultMaxTokens(ctx: AttemptContext, model: string): number {
  const table = ctx.options('claude.default_max_tokens');
  return table[model] ?? table.default ?? 8192;
}

/** OpenAI chat body -> Anthropic Messages body (relay.md §8). Unknown fields pass through. */
export async function toAnthropicRequest(ctx: AttemptContext, body: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...body };
  for (const k of OPENAI_ONLY) delete out[k];
  let model = ctx.upstreamModel;
  const thinking = model.endsWith(THINKING_SUFFIX) && ctx.options('claude.thinking_adapter_enabled');
  if (thinking) model = baseModel(model);
  out.model = model;

  const messages = (body.messages ?? []) as OpenAIMessage[];
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .filter(Boolean);
  if (system.length > 0) out.system = system.join('\n');
  out.messages = await convertMessages(messages.filter((m) => m.role !== 'system' && m.role !== 'developer'));

  const limit = [body.max_tokens, body.max_completion_tokens].find((v) => typeof v === 'number');
  const maxTokens = typeof limit === 'number' && limit > 0 ? limit : defaultMaxTokens(ctx, model);
  out.max_tokens = maxTokens;
  if (body.stop !== undefined && body.stop !== null)
    out.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (typeof body.user === 'string') out.metadata = { user_id: body.user };
  if (thinking) {
    const pct = ctx.options('claude.thinking_adapter_budget_tokens_percentage');
    // Anthropic's floor is 1024 budget tokens; the budget must stay below max_tokens.
    const budget = Math.max(1024, Math.floor(maxTokens * pct));
    if (budget >= maxTokens) out.max_tokens = budget + 1024;
    out.thinking = { type: 'enabled', budget_tokens: budget };
    out.temperature = 1;
    delete out.top_p;
    delete out.top_k;
  }
  const tools = toAnthropicTools(body.tools);
  if (tools) out.tools = tools;
  const choice = toAnthropicToolChoice(body.tool_choice, body.parallel_tool_calls);
  if (choice) out.tool_choice = choice;
  out.stream = ctx.stream || undefined;
  return out;
}

async function convertMessages(messages: OpenAIMessage[]): Promise<{ role: string; content: Block[] }[]> {
  const out: { role: string; content: Block[] }[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = await blocksOf(m);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    // Anthropic wants alternating roles: consecutive same-role messages (and tool results) are merged.
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

async function blocksOf(m: OpenAIMessage): Promise<Block[]> {
  if (m.role === 'tool')
    return [{ type: 'tool_result', tool_use_id: m.tool_call_id ?? '', content: textOf(m.content) || '(empty)' }];
  const blocks: Block[] = [];
  if (typeof m.content === 'string') {
    if (m.content !== '') blocks.push({ type: 'text', text: m.content });
  } else if (Array.isArray(m.content)) {
    for (const p of m.content as { type?: string; text?: string; image_url?: { url?: string } | string }[]) {
      if (p?.type === 'text' && typeof p.text === 'string' && p.text !== '')
        blocks.push({ type: 'text', text: p.text });
      else if (p?.type === 'image_url') {
        const url = typeof p.image_url === 'string' ? p.image_url : (p.image_url?.url ?? '');
        const img = await inlineImage(url);
        blocks.push({ type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.data } });
      }
    }
  }
  if (m.role === 'assistant')
    for (const c of m.tool_calls ?? [])
      blocks.push({
        type: 'tool_use',
        id: c.id ?? '',
        name: c.function?.name ?? '',
        input: parseArgs(c.function?.arguments),
      });
  return blocks;
}

function toAnthropicTools(tools: unknown): Block[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return (tools as OpenAITool[])
    .filter((t) => t.type === 'function' || t.function)
    .map((t) => ({
      name: t.function?.name ?? '',
      ...(t.function?.description ? { description: t.function.description } : {}),
      input_schema: t.function?.parameters ?? { type: 'object', properties: {} },
    }));
}

function toAnthropicToolChoice(choice: unknown, parallel: unknown): Block | undefined {
  let out: Block | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else if (choice && typeof choice === 'object') {
    const name = (choice as { function?: { name?: string } }).function?.name;
    if (name) out = { type: 'tool', name };
  }
  if (parallel === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}
