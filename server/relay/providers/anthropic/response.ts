import type { Usage } from '../types.ts';
import { type AnthropicUsage, finishReasonOf, openAIUsageOf, parseAnthropicUsage } from './usage.ts';

export interface AnthropicMessage {
  id?: string;
  model?: string;
  content?: { type: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown }[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

/** Anthropic Messages answer -> OpenAI chat completion (thinking -> reasoning_content). */
export function fromAnthropicResponse(text: string, model: string): { body: string; usage?: Usage } {
  const m = JSON.parse(text) as AnthropicMessage;
  let content = '';
  let reasoning = '';
  const toolCalls: unknown[] = [];
  for (const b of m.content ?? []) {
    if (b.type === 'text') content += b.text ?? '';
    else if (b.type === 'thinking') reasoning += b.thinking ?? '';
    else if (b.type === 'tool_use')
      toolCalls.push({
        id: b.id,
        type: 'function',
        function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
      });
  }
  const usage = parseAnthropicUsage(m.usage);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: content === '' && toolCalls.length ? null : content,
  };
  if (reasoning) message.reasoning_content = reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  const out = {
    id: m.id ?? `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: m.model ?? model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(m.stop_reason) ?? 'stop' }],
    ...(usage ? { usage: openAIUsageOf(usage) } : {}),
  };
  return { body: JSON.stringify(out), usage };
}
