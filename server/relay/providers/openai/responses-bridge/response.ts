import { nowSeconds } from '../../../../db/time.ts';
import { unparsableUpstreamJson } from '../../shared/error-body.ts';
import type { Usage } from '../../types.ts';
import { parseOpenAIUsage } from '../usage.ts';
import { itemsToMessages } from './items-to-messages.ts';
import type { ResponsesItem } from './shapes.ts';
import { type ResponsesUsage, usageToCanonical } from './usage.ts';

export interface ResponseObject {
  id?: string;
  created_at?: number;
  model?: string;
  status?: string;
  incomplete_details?: { reason?: string } | null;
  output?: ResponsesItem[];
  usage?: ResponsesUsage | null;
}

/** Responses status -> chat finish reason. */
export function finishOf(r: ResponseObject, calledTools: boolean): string {
  if (calledTools) return 'tool_calls';
  if (r.status === 'incomplete') return r.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  return 'stop';
}

/** Responses usage -> billing usage (reasoning tokens kept apart for the doors that show them). */
export function billingUsageOf(u: ResponsesUsage | null | undefined): Usage | undefined {
  const usage = parseOpenAIUsage(u);
  const reasoning = u?.output_tokens_details?.reasoning_tokens;
  if (usage && reasoning) usage.reasoningTokens = reasoning;
  return usage;
}

/** Output items a chat answer cannot hold (built-in tool calls, which a chat client cannot ask for) are skipped. */
const skip = () => undefined;

/**
 * A Response object -> a chat completion: the output items read back into one assistant message
 * (the same mapping the Responses door reads a client's input with), usage in chat's names.
 */
export function responsesToChatCompletion(text: string): { body: string; usage?: Usage } {
  let r: ResponseObject;
  try {
    r = JSON.parse(text) as ResponseObject;
  } catch {
    throw unparsableUpstreamJson();
  }
  const output = r.output ?? [];
  const m = itemsToMessages(output, skip).find((x) => x.role === 'assistant');
  const message: Record<string, unknown> = { role: 'assistant', content: '' };
  if (m?.role === 'assistant') {
    message.content = m.content ?? (m.tool_calls?.length ? null : '');
    if (m.tool_calls?.length) message.tool_calls = m.tool_calls;
    if (m.reasoning_content) message.reasoning_content = m.reasoning_content;
  } else {
    // Only reasoning came back (cut by max_output_tokens while thinking).
    const reasoning = output.flatMap((i) => (i.type === 'reasoning' ? (i.summary ?? []).map((s) => s.text ?? '') : []));
    if (reasoning.join('')) message.reasoning_content = reasoning.join('\n\n');
  }
  const refused = output
    .flatMap((i) => (i.type === 'message' && Array.isArray(i.content) ? i.content : []))
    .find((p) => p.type === 'refusal');
  if (refused) {
    message.refusal = refused.refusal;
    message.content = null;
  }
  const body = {
    id: `chatcmpl-${String(r.id ?? Date.now()).replace(/^resp_/, '')}`,
    object: 'chat.completion',
    created: r.created_at ?? nowSeconds(),
    model: r.model,
    choices: [{ index: 0, message, finish_reason: finishOf(r, Boolean(message.tool_calls)) }],
    ...(r.usage ? { usage: usageToCanonical(r.usage) } : {}),
  };
  return { body: JSON.stringify(body), usage: billingUsageOf(r.usage) };
}
