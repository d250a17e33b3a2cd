import { traceAttempt, traceCall, traceServed } from '../telemetry/genai.ts';
import { type RequestTrace, traceOf } from '../telemetry/request-trace.ts';
import { answerCall } from './answer.ts';
import { type FailedAttempt, logFailedCall, logRetriedAttempts } from './error-log.ts';
import { prepareCall, type RelayCall, type RelayRequest } from './prepare.ts';
import type { RelayRuntime } from './runtime.ts';
import { type Served, serveCall } from './serve.ts';

/**
 * The relay's straight line (architecture.md), one step per module: prepare (body -> model limit
 * -> guards -> rate limits), serve (candidates -> price -> reserve -> attempts, a virtual model's
 * real models in turn), answer (JSON, stream or audio to the client) and settle (usage -> settlement
 * + log, one transaction, after the bytes are sent). Throws before the first byte only; afterwards
 * failures end the stream and are billed as produced. Failed attempts and an error the client is
 * answered with become error log rows (error-log.ts), written off the request path. A traced request
 * (server/telemetry/) gets its GenAI attributes and a span per attempt on the way.
 */
export async function runRelay(rt: RelayRuntime, request: RelayRequest): Promise<void> {
  const startedAtMs = Date.now() - (performance.now() - request.startedAt);
  const failures: FailedAttempt[] = [];
  const trace = traceOf(request.req);
  let attempts = 0;
  const r: RelayRequest = {
    ...request,
    onAttemptFailed: (f) => failures.push({ ...f, atMs: Date.now() - startedAtMs }),
    ...(trace ? { traceAttempt: (channel, model) => traceAttempt(trace, channel, model, ++attempts) } : {}),
  };
  let call: RelayCall | undefined;
  let served: Served;
  try {
    call = await prepareCall(rt, r);
    if (trace) traceRelayCall(trace, call);
    served = await serveCall(rt, call);
  } catch (err) {
    logFailedCall(rt, { request: r, startedAtMs, model: call?.body.model, stream: call?.stream }, failures, err);
    throw err;
  }
  if (trace)
    traceServed(trace, {
      channel: served.ok.ctx.channel,
      upstreamModel: served.ok.ctx.upstreamModel,
      attempts: Math.max(attempts, 1),
      gatewayMs: performance.now() - call.startedAt - served.upstreamWaitMs,
    });
  const failed = { request: r, startedAtMs, model: served.model, stream: call.stream };
  logRetriedAttempts(rt, failed, failures);
  call.countSuccess();
  try {
    await answerCall(rt, call, served);
  } catch (err) {
    // An answer that could not be read or converted, before any byte reached the client.
    if (!call.reply.raw.headersSent) logFailedCall(rt, failed, [], err, served.ok.ctx.channel);
    throw err;
  }
}

const traceRelayCall = (trace: RequestTrace, call: RelayCall) =>
  traceCall(trace, {
    mode: call.mode,
    model: call.body.model,
    stream: call.stream,
    body: call.body,
    userId: call.principal.user.id,
    tokenId: call.principal.token?.id ?? 0,
    group: call.principal.group,
  });
