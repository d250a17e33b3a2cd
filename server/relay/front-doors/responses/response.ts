import type { AssistantLike } from '../../providers/openai/responses-bridge/messages-to-items.ts';
import type { Usage } from '../../providers/types.ts';
import { keepTurn, outputItems, responseObject, responsesUsage, type ResponsesTurn, statusOf } from './turn.ts';

interface ChatCompletion {
  choices?: { finish_reason?: string | null; message?: AssistantLike & { thinking_blocks?: unknown } }[];
  usage?: { completion_tokens_details?: { reasoning_tokens?: number } | null };
}

/**
 * Canonical chat completion -> Response object: the first choice's reasoning, text and tool calls
 * as output items; `length` becomes an incomplete response (max_output_tokens). The turn is kept
 * for previous_response_id unless the client said store: false.
 */
export function toResponsesAnswer(t: ResponsesTurn, chat: string, usage: Usage | undefined, model: string): string {
  const o = JSON.parse(chat) as ChatCompletion;
  const c = o.choices?.[0];
  const m = c?.message ?? {};
  const reasoningTokens = usage?.reasoningTokens ?? o.usage?.completion_tokens_details?.reasoning_tokens;
  const output = outputItems(t, m);
  keepTurn(t, m);
  return JSON.stringify(
    responseObject(t, model, {
      ...statusOf(c?.finish_reason),
      output,
      usage: responsesUsage(usage && { ...usage, reasoningTokens }),
    }),
  );
}
