import type { NativeTokenCount, UpstreamRequest } from '../types.ts';
import { anthropicHeaders, anthropicUrl } from './adapter.ts';
import { baseModel } from './request.ts';

/*
 * Anthropic's token counting (`POST /v1/messages/count_tokens`), used for the Anthropic door's
 * count requests on an Anthropic channel. The body is the client's count body as it came (model,
 * messages, system, tools, tool_choice, thinking): the endpoint refuses fields of a Messages body it
 * does not count with (max_tokens, stream), so nothing is added but the channel's model name.
 * Only adapter.ts imports this module (it sets `countTokens`); the relay reaches it through the adapter.
 */
export const anthropicCountTokens: NativeTokenCount = {
  protocol: 'anthropic',

  buildRequest(ctx, body, clientHeaders): UpstreamRequest {
    const model = baseModel(ctx.upstreamModel);
    const headers = anthropicHeaders({ ...ctx, stream: false }, model);
    // The client's betas (e.g. a new tool type to count) join the ones the operator configured, as on Messages.
    const beta = clientHeaders?.['anthropic-beta'];
    if (beta) headers['anthropic-beta'] = headers['anthropic-beta'] ? `${headers['anthropic-beta']},${beta}` : beta;
    return {
      url: `${anthropicUrl(ctx.channel.baseUrl)}/count_tokens`,
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, model }),
    };
  },

  inputTokensOf(text) {
    try {
      const n = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
      return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
    } catch {
      return undefined;
    }
  },
};
