import type { ThinkingBlock } from '../../canonical/types.ts';
import type { Usage } from '../../providers/types.ts';
import { GATEWAY_SIGNATURE } from './request.ts';

interface ChatCompletion {
  id?: string;
  model?: string;
  choices?: {
    finish_reason?: string | null;
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      thinking_blocks?: ThinkingBlock[];
      tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
}

/** OpenAI finish reasons -> Anthropic stop reasons. */
export function stopReasonOf(finish: string | null | undefined): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'content_filter') return 'refusal';
  return 'end_turn';
}

/**
 * Normalised usage -> Anthropic's (input without cache tokens). Without upstream usage, the
 * prompt as the gateway counted it (`promptTokens`), so input_tokens is never a bare 0.
 */
export function anthropicUsageOf(u: Usage | undefined, promptTokens = 0) {
  if (!u) return { input_tokens: promptTokens, output_tokens: 0 };
  return {
    input_tokens: Math.max(0, u.promptTokens - u.cachedTokens),
    output_tokens: u.completionTokens,
    cache_read_input_tokens: u.cachedTokens,
    cache_creation_input_tokens: u.cacheCreationTokens,
  };
}

export function parseToolInput(args: string | undefined): unknown {
  try {
    return args ? JSON.parse(args) : {};
  } catch {
    return { raw: args };
  }
}

/**
 * The thinking blocks of an answer: signed ones as the upstream gave them (an OpenAI-compatible
 * proxy in front of Claude passes them on), else the reasoning text under the gateway's signature.
 */
export function thinkingBlocksOf(m: { reasoning_content?: string | null; thinking_blocks?: unknown }) {
  if (Array.isArray(m.thinking_blocks) && m.thinking_blocks.length > 0) return m.thinking_blocks as ThinkingBlock[];
  const text = m.reasoning_content;
  return text ? [{ type: 'thinking', thinking: text, signature: GATEWAY_SIGNATURE }] : [];
}

/** Canonical OpenAI chat completion -> Anthropic Messages answer. */
export function openAIToAnthropicResponse(
  text: string,
  usage: Usage | undefined,
  model: string,
  promptTokens = 0,
): string {
  const o = JSON.parse(text) as ChatCompletion;
  const c = o.choices?.[0];
  const content: Record<string, unknown>[] = [...thinkingBlocksOf(c?.message ?? {})];
  if (c?.message?.content) content.push({ type: 'text', text: c.message.content });
  for (const t of c?.message?.tool_calls ?? [])
    content.push({ type: 'tool_use', id: t.id, name: t.function?.name, input: parseToolInput(t.function?.arguments) });
  return JSON.stringify({
    id: o.id?.startsWith('msg_') ? o.id : `msg_${o.id ?? Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReasonOf(c?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsageOf(usage, promptTokens),
  });
}
