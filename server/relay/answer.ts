import { pipeline } from 'node:stream/promises';
import { DROPPED_TOOLS_HEADER } from './dropped-tools.ts';
import { prefersChinese, refusal } from './errors.ts';
import { answerImages } from './images/answer-images.ts';
import { isImageMode } from './images/image-request.ts';
import type { RelayCall } from './prepare.ts';
import type { Usage } from './providers/types.ts';
import type { RelayRuntime } from './runtime.ts';
import type { Served } from './serve.ts';
import { type SettleOutcome, settleAndLog } from './settle-and-log.ts';
import { pipeStream } from './stream-response.ts';
import { serverTiming } from './timing.ts';
import { finishReasonsOf, traceAnswered, traceSettled, watchFinishReasons } from '../telemetry/genai.ts';
import { holdTrace, traceOf } from '../telemetry/request-trace.ts';
import { completionTextOf } from './usage.ts';

/** What answering one served call needs; `bill` settles and logs once the bytes are out. */
export interface Answering {
  rt: RelayRuntime;
  call: RelayCall;
  served: Served;
  /** x-request-id and Server-Timing (the gateway's own time, known before the first byte). */
  headers: Record<string, string>;
  bill(outcome: SettleOutcome): void;
}

/**
 * The relay's answering step: the upstream's answer to the client as audio, JSON or an event
 * stream, then the settlement (settle-and-log.ts), which runs after the bytes were sent.
 * Throws before the first byte only; afterwards failures end the stream and are billed as produced.
 */
export async function answerCall(rt: RelayRuntime, call: RelayCall, served: Served): Promise<void> {
  const { model, ok } = served;
  const ownMs = performance.now() - call.startedAt - served.upstreamWaitMs;
  const m = rt.deps.metrics;
  const channelLabel = String(ok.ctx.channel.id);
  m.relayRequests.inc({ model, channel: channelLabel, status: '200' });
  m.gatewayLatency.observe(Math.max(0, ownMs) / 1000);
  m.upstreamLatency.observe({ channel: channelLabel }, ok.upstreamWaitMs / 1000);
  const trace = traceOf(call.req);
  // A traced call's span stays open until the settlement knows the usage it records.
  const release = trace && holdTrace(trace);
  const a: Answering = {
    rt,
    call,
    served,
    headers: { 'x-request-id': call.req.id, 'server-timing': serverTiming(ownMs), ...droppedHeader(served) },
    bill: (outcome) => {
      const settled = settleAndLog(rt, call, served, outcome);
      rt.track(settled);
      if (!trace || !release) return;
      traceAnswered(trace, {
        stream: call.stream,
        frtMs: outcome.frtMs,
        finishReasons: outcome.finishReasons ?? [],
        produced: outcome.produced,
      });
      settled.then((s) => traceSettled(trace, s)).then(release, release);
    },
  };
  try {
    if (call.mode === 'speech') return await answerAudio(a);
    if (isImageMode(call.mode)) return await answerImages(a);
    if (!call.stream) return await answerJson(a);
    return await answerStream(a);
  } catch (err) {
    release?.();
    throw err;
  }
}

/** The tools the request left out (dropped-tools.ts), when there are any. */
const droppedHeader = ({ droppedTools }: Served): Record<string, string> =>
  droppedTools.length ? { [DROPPED_TOOLS_HEADER]: droppedTools.join(', ') } : {};

/** Audio bytes pass through as they came; TTS reports no usage, so the input text is counted. */
async function answerAudio({ call, served, headers, bill }: Answering): Promise<void> {
  const { reply } = call;
  reply.hijack();
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': String(served.ok.res.headers['content-type'] ?? 'audio/mpeg'),
  });
  await pipeline(served.ok.res.body, reply.raw).catch(() => undefined);
  const clientAborted = call.abort.aborted;
  bill({
    reported: undefined,
    produced: () => '',
    frtMs: Math.round(performance.now() - call.startedAt),
    clientAborted,
    cut: clientAborted,
  });
}

/** A whole answer, converted to the client's dialect; one that cannot be read or converted is refunded. */
async function answerJson({ rt, call, served, headers, bill }: Answering): Promise<void> {
  const { ok, reservation } = served;
  const { door, reply } = call;
  const refund = () => rt.track(rt.deps.services.billing.refund(reservation));
  let text: string;
  try {
    text = await ok.res.body.text();
  } catch (err) {
    refund();
    throw call.abort.aborted
      ? refusal(499, 'The client closed the connection', '客户端已断开连接', 'client_closed')
      : err;
  }
  const frtMs = Math.round(performance.now() - call.startedAt);
  let converted: { body: string; usage?: Usage; produced?: string };
  try {
    converted = door
      ? door.convertResponse(ok, text, call.body, call.native)
      : ok.adapter.convertResponse(ok.ctx, text);
  } catch (err) {
    // An answer that cannot be converted (e.g. malformed JSON) reaches nobody: refund, never bill.
    refund();
    throw err;
  }
  reply.hijack();
  reply.raw.writeHead(200, { ...headers, 'content-type': contentTypeOf(call.mode, converted.body) });
  reply.raw.end(converted.body);
  bill({
    reported: converted.usage,
    produced: () => converted.produced ?? completionTextOf(converted.body),
    frtMs,
    clientAborted: false,
    cut: false,
    // Read only for a traced call (its span's gen_ai.response.finish_reasons).
    get finishReasons() {
      return finishReasonsOf(converted.body);
    },
  });
}

/**
 * JSON, except a transcript asked for as text, srt or vtt (response_format): OpenAI answers those as
 * text/plain, and its SDK reads the body as JSON when told it is JSON.
 */
const contentTypeOf = (mode: RelayCall['mode'], body: string) =>
  (mode === 'transcriptions' || mode === 'translations') && !/^\s*[{[]/.test(body)
    ? 'text/plain; charset=utf-8'
    : 'application/json';

/** Server-sent events, converted chunk by chunk; usage is what the stream reported or produced. */
async function answerStream({ rt, call, served, headers, bill }: Answering): Promise<void> {
  const { ok } = served;
  const { door, reply } = call;
  const opt = rt.deps.services.options.get;
  reply.hijack();
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const converter = door
    ? door.createStreamConverter(ok, call.body, call.native)
    : ok.adapter.createStreamConverter(ok.ctx, call.clientWantsUsage);
  // A traced stream's span names the finish reasons its client was sent.
  const finishReasons = traceOf(call.req) ? watchFinishReasons(converter) : undefined;
  const m = rt.deps.metrics;
  m.activeStreams.inc();
  const outcome = await pipeStream({
    res: ok.res,
    converter,
    out: reply.raw,
    abort: call.abort,
    startedAt: call.startedAt,
    pingMs: opt('general_setting.ping_interval_enabled') ? opt('general_setting.ping_interval_seconds') * 1000 : 0,
    idleMs: rt.tuning.streamIdleMs,
    requestId: call.req.id,
    chinese: prefersChinese(call.req.headers['accept-language']),
  });
  m.activeStreams.dec();
  bill({
    reported: converter.usage(),
    produced: () => converter.producedText(),
    frtMs: outcome.frtMs,
    clientAborted: outcome.clientAborted,
    cut: outcome.clientAborted || outcome.upstreamFailed,
    finishReasons,
  });
}
