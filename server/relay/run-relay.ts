import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reservationFor } from '../domains/billing/pricing.ts';
import type { Reservation } from '../domains/billing/reserve.ts';
import { AppError } from '../errors.ts';
import { AttemptsFailed, runAttempts } from './attempts.ts';
import { RelayCancel } from './cancel.ts';
import { RelayError, relayError } from './errors.ts';
import type { FrontDoor } from './front-doors/types.ts';
import type { RelayPrincipal } from './principal.ts';
import type { RelayMode, Usage } from './providers/types.ts';
import { checkRequestGuards } from './content-guard.ts';
import { checkRelayLimits } from './relay-limits.ts';
import { settleAndLog } from './settle-and-log.ts';
import type { Candidate } from './routing-cache.ts';
import type { RelayRuntime } from './runtime.ts';
import { parseRelayBody } from './schemas.ts';
import { pipeStream } from './stream-response.ts';
import { checkModel } from './token-auth.ts';
import { completionTextOf, countPromptTokens, loadTokenizers } from './usage.ts';

/** Server-Timing value: the gateway's own milliseconds, upstream waits excluded (docs/options.md). */
export const serverTiming = (ms: number) => `gateway;dur=${Math.max(0, ms).toFixed(2)}`;

/**
 * The relay's straight line (architecture.md): body -> model limit -> rate limits
 * -> candidates -> price -> reserve -> attempts -> stream or JSON to the client ->
 * usage -> settle + log (one transaction, after the bytes are sent). Throws before the
 * first byte only; afterwards failures end the stream and are billed as produced.
 */
export async function runRelay(
  rt: RelayRuntime,
  req: FastifyRequest,
  reply: FastifyReply,
  mode: RelayMode,
  principal: RelayPrincipal,
  startedAt: number,
  door?: FrontDoor,
): Promise<void> {
  const { deps } = rt;
  const opt = deps.services.options.get;
  const startedAtMs = Date.now() - (performance.now() - startedAt);
  // Native front doors (Anthropic, Gemini, Responses) hand over a canonical OpenAI body and keep the client's own.
  const native = door?.parse(req);
  if (native && door?.resolve) await door.resolve(native, { kv: deps.kv, userId: principal.user.id });
  const body = parseRelayBody(mode, native ? native.canonical : req.body);
  checkModel(principal.token, body.model);
  const models = modelsToTry(rt, principal, body.model);
  checkRequestGuards(deps, req, principal, body);
  const countSuccess = await checkRelayLimits(deps, principal);

  const generates = mode === 'chat' || mode === 'completions' || mode === 'responses';
  const stream = generates && body.stream === true;
  const so = body.stream_options as { include_usage?: boolean } | null | undefined;
  const clientWantsUsage = stream && so?.include_usage === true;
  const limits = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].filter(
    (v): v is number => typeof v === 'number',
  );
  const maxTokens = limits.length > 0 ? Math.max(...limits) : undefined;
  const rawBody = opt('global.pass_through_request_enabled') ? JSON.stringify(req.body) : '';
  const nativeBody =
    door && native
      ? { protocol: door.protocol, body: native.body, headers: native.headers, nativeOnly: native.nativeOnly }
      : undefined;

  const abort = new RelayCancel();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });

  /** candidates -> price -> reserve -> attempts for one real model; refunds its reservation when it fails. */
  const serveWith = async (model: string) => {
    // No channel is the 503 of relay.md §3 whether or not the model has a price.
    const candidates = candidatesFor(rt, principal, model);
    const priced = deps.services.billing.resolvePrice(model, principal.group, principal.user.acceptUnsetModels);
    if (!priced.ok) throw relayError(403, priced.message, 'model_price_error');
    const price = priced.price;
    // A fixed ModelPrice is per image for image generation (n images = n calls).
    const calls = mode === 'images' && price.mode === 'price' ? Number(body.n ?? 1) || 1 : 1;
    const needsEstimate = price.mode === 'ratio' && price.modelRatio > 0 && (!generates || maxTokens !== undefined);
    if (needsEstimate) await loadTokenizers();
    const estimate = needsEstimate ? countPromptTokens(model, body) : 0;
    const amount = reservationFor(price, estimate, maxTokens, opt('PreConsumedQuota'), generates) * calls;
    const reservation = await reserve(rt, principal, amount, req);
    try {
      const ok = await runAttempts(deps, {
        mode,
        model,
        body,
        rawBody,
        stream,
        candidates,
        pinned: principal.pinnedChannelId !== null,
        abort,
        native: nativeBody,
        userId: principal.user.id,
      });
      return { model, price, calls, reservation, ok };
    } catch (err) {
      rt.track(deps.services.billing.refund(reservation));
      throw err;
    }
  };

  // A virtual model's real models are tried in order (relay.md §3): the next one when every
  // channel of this one failed as a retry would (5xx, 429), never after a client error.
  let served: Awaited<ReturnType<typeof serveWith>> | undefined;
  let failedWaitMs = 0;
  const failedChannels: number[] = [];
  for (let k = 0; !served; k++) {
    const model = applyReasoningSuffix(rt, principal, body, models[k]);
    body.model = model;
    try {
      served = await serveWith(model);
    } catch (err) {
      if (err instanceof AttemptsFailed) {
        failedWaitMs += err.upstreamWaitMs;
        failedChannels.push(...err.chain);
      }
      if (k + 1 >= models.length || abort.aborted || !worthAnotherModel(err)) throw err;
    }
  }
  const { model, price, calls, reservation, ok } = served;
  // The log's channel chain shows the earlier models' channels too.
  if (failedChannels.length > 0) ok.chain.unshift(...failedChannels);
  countSuccess();

  const ownMs = performance.now() - startedAt - ok.upstreamWaitMs - failedWaitMs;
  const headers = { 'x-request-id': req.id, 'server-timing': serverTiming(ownMs) };
  const m = deps.metrics;
  const channelLabel = String(ok.ctx.channel.id);
  m.relayRequests.inc({ model, channel: channelLabel, status: '200' });
  m.gatewayLatency.observe(Math.max(0, ownMs) / 1000);
  m.upstreamLatency.observe({ channel: channelLabel }, ok.upstreamWaitMs / 1000);
  const bill = (
    reported: Usage | undefined,
    produced: () => string,
    frtMs: number,
    clientAborted: boolean,
    cut = clientAborted,
  ) =>
    rt.track(
      settleAndLog(rt, {
        reservation,
        price,
        reported,
        produced,
        body,
        frtMs,
        clientAborted,
        cut,
        principal,
        model,
        ok,
        stream,
        req,
        startedAtMs,
        reasoningEffort: typeof body.reasoning_effort === 'string' ? body.reasoning_effort : undefined,
        calls,
      }),
    );

  if (mode === 'speech') {
    // Audio bytes pass through as they came; TTS reports no usage, so the input text is counted.
    reply.hijack();
    reply.raw.writeHead(200, { ...headers, 'content-type': String(ok.res.headers['content-type'] ?? 'audio/mpeg') });
    await pipeline(ok.res.body, reply.raw).catch(() => undefined);
    bill(undefined, () => '', Math.round(performance.now() - startedAt), abort.aborted);
    return;
  }

  if (!stream) {
    let text: string;
    try {
      text = await ok.res.body.text();
    } catch (err) {
      rt.track(deps.services.billing.refund(reservation));
      throw abort.aborted ? relayError(499, '客户端已断开连接', 'client_closed') : err;
    }
    const frtMs = Math.round(performance.now() - startedAt);
    let converted: { body: string; usage?: Usage; produced?: string };
    try {
      converted = door ? door.convertResponse(ok, text, body, native) : ok.adapter.convertResponse(ok.ctx, text);
    } catch (err) {
      // An answer that cannot be converted (e.g. malformed JSON) reaches nobody: refund, never bill.
      rt.track(deps.services.billing.refund(reservation));
      throw err;
    }
    reply.hijack();
    reply.raw.writeHead(200, { ...headers, 'content-type': 'application/json' });
    reply.raw.end(converted.body);
    bill(converted.usage, () => converted.produced ?? completionTextOf(converted.body), frtMs, false);
    return;
  }

  reply.hijack();
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const converter = door
    ? door.createStreamConverter(ok, body, native)
    : ok.adapter.createStreamConverter(ok.ctx, clientWantsUsage);
  m.activeStreams.inc();
  const outcome = await pipeStream({
    res: ok.res,
    converter,
    out: reply.raw,
    abort,
    startedAt,
    pingMs: opt('general_setting.ping_interval_enabled') ? opt('general_setting.ping_interval_seconds') * 1000 : 0,
    idleMs: rt.tuning.streamIdleMs,
    requestId: req.id,
  });
  m.activeStreams.dec();
  bill(
    converter.usage(),
    () => converter.producedText(),
    outcome.frtMs,
    outcome.clientAborted,
    outcome.clientAborted || outcome.upstreamFailed,
  );
}

/**
 * Global model mapping (/api/model_mapping): a virtual name stands for real models in
 * priority order; those this group can reach are tried in that order (the one that serves
 * is billed). Any other name is itself.
 */
export function modelsToTry(rt: RelayRuntime, p: RelayPrincipal, requested: string): string[] {
  const real = rt.deps.services.modelMapping.resolveVirtualModel(requested);
  if (!real || p.pinnedChannelId !== null) return [requested];
  const reachable = real.filter((m) => rt.routing.candidates(p.group, m).length > 0);
  return reachable.length > 0 ? reachable : [real[0] ?? requested];
}

/** Failures another real model may not share: every channel down or saturated; not a client's mistake. */
const worthAnotherModel = (err: unknown) => err instanceof RelayError && (err.status >= 500 || err.status === 429);

/**
 * relay.md §8: `o3-mini-high` means `o3-mini` with reasoning_effort "high" — unless a channel
 * serves the suffixed name itself. The client's own reasoning_effort wins.
 */
export function applyReasoningSuffix(rt: RelayRuntime, p: RelayPrincipal, body: Record<string, unknown>, model: string) {
  const m = /^(.+)-(high|medium|low)$/.exec(model);
  if (!m || rt.routing.candidates(p.group, model).length > 0) return model;
  if (p.pinnedChannelId === null && rt.routing.candidates(p.group, m[1]).length === 0) return model;
  if (body.reasoning_effort === undefined) body.reasoning_effort = m[2];
  return m[1];
}

export function candidatesFor(rt: RelayRuntime, p: RelayPrincipal, model: string): readonly Candidate[] {
  if (p.pinnedChannelId !== null) {
    const channel = rt.routing.channel(p.pinnedChannelId);
    if (!channel) throw relayError(503, `渠道 #${p.pinnedChannelId} 不存在或已被禁用`, 'channel_unavailable');
    return [{ channel, priority: 0, weight: 0 }];
  }
  const list = rt.routing.candidates(p.group, model);
  if (list.length === 0)
    throw relayError(503, `当前分组 ${p.group} 下对于模型 ${model} 无可用渠道`, 'no_available_channel');
  return list;
}

async function reserve(rt: RelayRuntime, p: RelayPrincipal, amount: number, req: FastifyRequest): Promise<Reservation> {
  const payer = { userId: p.user.id, tokenId: p.token?.id ?? 0, unlimitedToken: p.token?.unlimited ?? true };
  // relay.md §5 allows new-api's shortcut only here: an unlimited token of a user holding over 100x the
  // bound needs no reservation (the settlement is still conditional and never takes the balance below zero).
  if (p.token?.unlimited && amount > 0 && p.user.quotaSnapshot > amount * 100) return { ...payer, id: '', quota: 0 };
  try {
    return await rt.deps.services.billing.reserve(payer, amount);
  } catch (err) {
    // The cached token may think it still has quota; re-read it next time so it shows as exhausted.
    if (err instanceof AppError && err.detail === 'token_quota_exhausted') rt.tokenAuth.forgetRequest(req);
    throw err;
  }
}
