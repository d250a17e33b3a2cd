import { autoCacheControlOn } from '../../../../shared/channel-cache.ts';
import { refusal } from '../../errors.ts';
import type { AttemptContext } from '../types.ts';
import { type CacheableBody, placeCacheBreakpoints } from './cache-breakpoints.ts';
import { checkFields, isNativeField } from './fields.ts';
import { type Block, type Message, renderMessages } from './messages.ts';
import { structuredOutput } from './structured.ts';
import { askedBudget, clampBudget, THINKING_SUFFIX } from './thinking.ts';

export { THINKING_SUFFIX } from './thinking.ts';

interface OpenAITool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

/** The text of an Anthropic string-or-blocks field (a system prompt, a tool result): its text blocks joined. */
export const textOfBlocks = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? (c as { type?: string; text?: string }[]).map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('')
      : '';

/** The model a `-thinking` name stands for (other names as they are). */
export const baseModel = (m: string) => (m.endsWith(THINKING_SUFFIX) ? m.slice(0, -THINKING_SUFFIX.length) : m);

/** claude.default_max_tokens: the model's entry, else `default`, else 8192. */
export function defaultMaxTokens(ctx: AttemptContext, model: string): number {
  const table = ctx.options('claude.default_max_tokens');
  return table[model] ?? table.default ?? 8192;
}

/**
 * Canonical (OpenAI chat) body -> Anthropic Messages body (relay.md §8, docs/conversion.md
 * § Anthropic). Every field is converted, dropped for a stated reason or refused (fields.ts);
 * Anthropic's own fields pass as they are.
 */
export async function toAnthropicRequest(ctx: AttemptContext, body: Record<string, unknown>) {
  checkFields(body);
  // A search the client offered the model, not one it needs: left out, and reported.
  if (body.web_search_options) (ctx.droppedTools ??= []).push('web_search_options');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (isNativeField(k) && v !== null && v !== undefined) out[k] = v;
  const model = baseModel(ctx.upstreamModel);
  out.model = model;

  const rendered = await renderMessages(ctx, (body.messages ?? []) as Message[]);
  const structured = structuredOutput(ctx, body.response_format);
  out.system = withInstruction(rendered.system, structured.instruction);
  if (out.system === undefined) delete out.system;
  out.messages = rendered.messages;

  const limit = [body.max_tokens, body.max_completion_tokens].find((v) => typeof v === 'number');
  let maxTokens = typeof limit === 'number' && limit > 0 ? limit : defaultMaxTokens(ctx, model);
  // OpenAI's range is 0-2, Anthropic's 0-1.
  if (typeof body.temperature === 'number') out.temperature = Math.min(1, body.temperature);
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  if (typeof body.top_k === 'number') out.top_k = body.top_k;
  if (body.stop !== undefined && body.stop !== null)
    out.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  const user = [body.user, body.safety_identifier].find((v) => typeof v === 'string' && v !== '');
  if (user) out.metadata = { user_id: user };

  const tools = toAnthropicTools(body.tools) ?? [];
  if (structured.tool) tools.push(structured.tool);
  if (tools.length > 0) out.tools = tools;
  const choice = toAnthropicToolChoice(body.tool_choice, body.parallel_tool_calls, structured.tool, tools.length);
  if (choice) out.tool_choice = choice;

  if (out.thinking === undefined) {
    const asked = askedBudget(ctx, body, maxTokens);
    // Anthropic refuses thinking with a forced tool, and on a tool loop whose turn came back without
    // its signed thinking (the client or the carry-over lost it): that request goes without thinking.
    const forced = choice?.type === 'any' || choice?.type === 'tool';
    if (asked !== undefined && !forced && rendered.loopSigned) {
      const c = clampBudget(asked, maxTokens);
      maxTokens = c.maxTokens;
      out.thinking = { type: 'enabled', budget_tokens: c.budget };
    }
  }
  if ((out.thinking as { type?: string } | undefined)?.type === 'enabled') {
    // Thinking takes no sampling changes: temperature 1, no top_p/top_k.
    out.temperature = 1;
    delete out.top_p;
    delete out.top_k;
  }
  out.max_tokens = maxTokens;
  if (ctx.stream) out.stream = true;
  // The channel's switch (shared/channel-cache.ts): breakpoints on the stable prefix (cache-breakpoints.ts).
  if (autoCacheControlOn(ctx.channel.type, ctx.channel.setting)) placeCacheBreakpoints(out as unknown as CacheableBody);
  return out;
}

/** The system prompt with the json_object instruction after it. */
function withInstruction(system: string | Block[] | undefined, instruction: string | undefined) {
  if (!instruction) return system;
  if (system === undefined) return instruction;
  if (typeof system === 'string') return `${system}\n\n${instruction}`;
  return [...system, { type: 'text', text: instruction }];
}

function toAnthropicTools(tools: unknown): Block[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return (tools as OpenAITool[]).map((t) => {
    if (t.type !== undefined && t.type !== 'function')
      throw refusal(
        400,
        `Tools of type ${t.type} cannot be converted for an Anthropic upstream: only function tools`,
        `${t.type} 类型的工具无法转换给 Anthropic 上游：只支持 function 工具`,
      );
    return {
      name: t.function?.name ?? '',
      ...(t.function?.description ? { description: t.function.description } : {}),
      input_schema: t.function?.parameters ?? { type: 'object', properties: {} },
    };
  });
}

/**
 * tool_choice and parallel_tool_calls -> Anthropic's tool_choice. With a json_schema tool
 * (structured.ts) the model must call a tool: that one alone, or any when the client's own
 * tools may serve first; a choice the client named stays.
 */
function toAnthropicToolChoice(
  choice: unknown,
  parallel: unknown,
  jsonTool: Block | undefined,
  toolCount: number,
): Block | undefined {
  let out: Block | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else if (choice && typeof choice === 'object') {
    const name = (choice as { function?: { name?: string } }).function?.name;
    if (name) out = { type: 'tool', name };
  }
  if (jsonTool && out?.type !== 'tool')
    out = toolCount > 1 && out?.type !== 'none' ? { type: 'any' } : { type: 'tool', name: jsonTool.name };
  if (parallel === false && toolCount > 0) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}
