import { reasoningOf } from '../../../canonical/reasoning.ts';
import type { AttemptContext, ProviderAdapter } from '../../types.ts';
import { renderChatBody } from '../request.ts';
import { chatGoesToResponses } from './channel.ts';
import { chatToResponsesRequest } from './request.ts';
import { responsesToChatCompletion } from './response.ts';
import { createResponsesToChatStream } from './stream.ts';

/** Whether this attempt's chat request goes to the upstream's /responses instead (channel.ts). */
const bridged = (ctx: AttemptContext) => ctx.mode === 'chat' && chatGoesToResponses(ctx.channel, ctx.upstreamModel);

/**
 * The OpenAI adapter with the reverse bridge (docs/conversion.md § Responses): a chat request for
 * a model that only answers on the Responses API is rendered for the model as any chat request
 * (reasoning-model rules included), converted to a Responses request and sent to /responses; the
 * answer and the stream come back as chat. Every other request is the adapter's own.
 */
export function withResponsesBridge(base: ProviderAdapter): ProviderAdapter {
  return {
    ...base,
    buildRequest(ctx, body) {
      if (!bridged(ctx)) return base.buildRequest(ctx, body);
      const responses = chatToResponsesRequest(renderChatBody(ctx, body), reasoningOf(body), ctx.upstreamModel);
      return base.buildRequest({ ...ctx, mode: 'responses' }, responses);
    },
    convertResponse: (ctx, text) => (bridged(ctx) ? responsesToChatCompletion(text) : base.convertResponse(ctx, text)),
    createStreamConverter: (ctx, clientWantsUsage) =>
      bridged(ctx)
        ? createResponsesToChatStream(ctx.upstreamModel, clientWantsUsage)
        : base.createStreamConverter(ctx, clientWantsUsage),
  };
}
