import { nowSeconds } from '../../../db/time.ts';
import type { ThinkingBlock } from '../../canonical/types.ts';
import type { AttemptContext, Usage } from '../types.ts';
import { answerText, jsonAnswerOf } from './structured.ts';
import { type AnthropicUsage, finishReasonOf, openAIUsageOf, parseAnthropicUsage } from './usage.ts';

export interface AnthropicMessage {
  id?: string;
  model?: string;
  content?: {
    type: string;
    text?: string;
    thinking?: string;
    signature?: string;
    data?: string;
    id?: string;
    name?: string;
    input?: unknown;
  }[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

/**
 * Anthropic Messages answer -> canonical chat completion: thinking text to reasoning_content,
 * the signed blocks (redacted ones included) to `thinking_blocks` and remembered under each
 * tool_use of the turn (canonical/carry.ts), so turn 2 of a tool loop can give them back even
 * when the client drops them; the json_schema emulation's tool call becomes the content.
 */
export function fromAnthropicResponse(
  ctx: AttemptContext,
  text: string,
  model: string,
): { body: string; usage?: Usage } {
  const m = JSON.parse(text) as AnthropicMessage;
  const json = jsonAnswerOf(ctx);
  let content = '';
  let reasoning = '';
  const thinking: ThinkingBlock[] = [];
  const toolCalls: { id?: string; type: 'function'; function: { name?: string; arguments: string } }[] = [];
  for (const b of m.content ?? []) {
    if (b.type === 'text') content += b.text ?? '';
    else if (b.type === 'thinking') {
      reasoning += b.thinking ?? '';
      if (b.signature) thinking.push({ type: 'thinking', thinking: b.thinking ?? '', signature: b.signature });
    } else if (b.type === 'redacted_thinking' && b.data) thinking.push({ type: 'redacted_thinking', data: b.data });
    else if (b.type === 'tool_use') {
      if (json && b.name === json.tool) content += answerText(json, b.input);
      else
        toolCalls.push({
          id: b.id,
          type: 'function',
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        });
    }
  }
  if (thinking.length > 0) for (const c of toolCalls) ctx.carry.remember(c.id ?? '', { thinking_blocks: thinking });
  const usage = parseAnthropicUsage(m.usage);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: content === '' && toolCalls.length ? null : content,
  };
  if (reasoning) message.reasoning_content = reasoning;
  if (thinking.length > 0) message.thinking_blocks = thinking;
  if (toolCalls.length) message.tool_calls = toolCalls;
  // The emulation's forced call ends the turn like any answer.
  const finish = finishReasonOf(m.stop_reason) ?? 'stop';
  const out = {
    id: m.id ?? `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model: m.model ?? model,
    choices: [{ index: 0, message, finish_reason: finish === 'tool_calls' && !toolCalls.length ? 'stop' : finish }],
    ...(usage ? { usage: openAIUsageOf(usage) } : {}),
  };
  return { body: JSON.stringify(out), usage };
}
