import { nowSeconds } from '../../../db/time.ts';
import type { CanonicalMessage } from '../../canonical/types.ts';
import { schemaRefusal } from '../../errors.ts';
import { messagesToItems } from '../../providers/openai/responses-bridge/messages-to-items.ts';
import { newId } from '../../providers/openai/responses-bridge/shapes.ts';
import { completionTextOf } from '../../usage.ts';
import type { DoorRequest, FrontDoor } from '../types.ts';
import { responsesBody, responsesToCanonical } from './request.ts';
import { toResponsesAnswer } from './response.ts';
import { loadConversation, previousResponseNotFound } from './store.ts';
import { toResponsesStream } from './stream.ts';
import type { ResponsesTurn } from './turn.ts';

/**
 * POST /v1/responses (docs/conversion.md § Responses): relayed as it came to channels that speak
 * Responses (responses-bridge/channel.ts), converted to the canonical chat form for every other
 * channel and answered back as a Response object or its event stream.
 */
export const responsesDoor: FrontDoor = {
  protocol: 'responses',

  parse(req) {
    const parsed = responsesBody.safeParse(req.body ?? {});
    if (!parsed.success) throw schemaRefusal(parsed.error.issues[0]?.message, 'invalid_request_error');
    const body = parsed.data;
    const converted = responsesToCanonical(body, []);
    const turn: ResponsesTurn = {
      id: newId('resp'),
      createdAt: nowSeconds(),
      body,
      conversation: converted.conversation,
      custom: converted.custom,
      namespaced: converted.namespaced,
    };
    // A native channel gets the client's own body, keys in the client's order.
    const native = req.body as Record<string, unknown>;
    return {
      canonical: converted.canonical,
      body: native,
      nativeOnly: converted.refusal,
      droppedTools: converted.dropped,
      state: turn,
    };
  },

  async resolve(request, env) {
    const turn = turnOf(request);
    turn.env = env;
    const previous = turn.body.previous_response_id;
    if (!previous) return;
    const stored = await loadConversation(env.kv, env.userId, previous);
    if (!stored) {
      // Maybe OpenAI's own id: a native channel can still look it up; no other channel can.
      request.nativeOnly ??= previousResponseNotFound(previous);
      return;
    }
    // A conversation this gateway kept: converted with it, and given in `input` to a native channel.
    const converted = responsesToCanonical(turn.body, stored);
    turn.conversation = converted.conversation;
    request.canonical = converted.canonical;
    request.body = withHistory(request.body, stored);
  },

  convertResponse(ok, text, _canonical, request) {
    const inner = ok.adapter.convertResponse(ok.ctx, text);
    // Native: the attempt ran in the Responses mode, whose converter reads the usage and keeps the body.
    if (ok.native) return inner;
    const body = toResponsesAnswer(turnOf(request), inner.body, inner.usage, ok.ctx.upstreamModel);
    return { body, usage: inner.usage, produced: inner.produced ?? completionTextOf(inner.body) };
  },

  createStreamConverter(ok, _canonical, request) {
    const inner = ok.adapter.createStreamConverter(ok.ctx, true);
    return ok.native ? inner : toResponsesStream(inner, turnOf(request), ok.ctx.upstreamModel);
  },
};

function turnOf(request: DoorRequest | undefined): ResponsesTurn {
  if (!request?.state) throw new Error('the Responses door answers only requests it parsed');
  return request.state as ResponsesTurn;
}

/** The client's body with a stored conversation put before its input, for a channel that cannot look it up. */
function withHistory(body: Record<string, unknown>, history: CanonicalMessage[]): Record<string, unknown> {
  const input = body.input;
  const own = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
  const out: Record<string, unknown> = { ...body, input: [...messagesToItems(history), ...own] };
  delete out.previous_response_id;
  return out;
}
