import type { ServerResponse } from 'node:http';
import { createParser } from 'eventsource-parser';
import { drained, type RelayCancel } from './cancel.ts';
import type { SseEvent, StreamConverter } from './providers/types.ts';
import type { UpstreamResponse } from './upstream.ts';

export interface StreamOutcome {
  /** ms from the request's start to the first upstream body byte. */
  frtMs: number;
  /** The client went away before the end; the upstream was aborted. */
  clientAborted: boolean;
  /** The upstream failed or went idle mid-stream; the client got an error event. */
  upstreamFailed: boolean;
}

export interface StreamOptions {
  res: UpstreamResponse;
  converter: StreamConverter;
  out: ServerResponse;
  abort: RelayCancel;
  startedAt: number;
  /** Keep-alive comment interval (ms); 0 = off. */
  pingMs: number;
  /** An upstream silent this long is cut and the client told so. */
  idleMs: number;
  requestId: string;
  /** The caller's Accept-Language prefers Chinese (relay/errors.ts prefersChinese): the cut is said in Chinese. */
  chinese?: boolean;
}

/**
 * Passes an upstream SSE stream to the client chunk by chunk (no buffering of the
 * answer), through the adapter's converter. Headers were already written by the
 * caller. Honours back-pressure, sends `: ping` comments when enabled, ends a
 * stuck upstream with an error event, and aborts the upstream when the client
 * disconnects. Never throws: the outcome says how it ended, for billing.
 */
export async function pipeStream(o: StreamOptions): Promise<StreamOutcome> {
  const { out, converter } = o;
  let frtMs = -1;
  let idle = false;
  // Frame converters (native front doors) write whole SSE frames with their `event:` lines.
  const write = (payload: string) => {
    if (!out.destroyed) out.write(converter.frames ? payload : `data: ${payload}\n\n`);
  };
  const onEvent = (e: SseEvent) => {
    for (const d of converter.push({ event: e.event, data: e.data })) write(d);
  };
  const parser = createParser({ onEvent });
  const decoder = new TextDecoder();
  // Most providers stream SSE, parsed here; a converter with its own framing (Bedrock) yields events.
  const source: AsyncIterable<Uint8Array | SseEvent[]> = converter.decode ? converter.decode(o.res.body) : o.res.body;
  const ping = o.pingMs > 0 ? setInterval(() => out.destroyed || out.write(': ping\n\n'), o.pingMs) : undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdle = () => {
    if (idleTimer) idleTimer.refresh();
    else
      idleTimer = setTimeout(() => {
        idle = true;
        o.abort.abort(new Error('upstream idle'));
      }, o.idleMs);
  };

  let upstreamFailed = false;
  try {
    armIdle();
    for await (const chunk of source) {
      if (frtMs < 0) frtMs = Math.round(performance.now() - o.startedAt);
      armIdle();
      // One upstream read often holds several events: corking turns their writes into one syscall.
      out.cork();
      if (Array.isArray(chunk)) for (const e of chunk) onEvent(e);
      else parser.feed(decoder.decode(chunk, { stream: true }));
      out.uncork();
      // A client that stops reading gets no more until it drains; one that goes away (or a
      // shutdown cutting connections) never emits 'drain', so the abort must end the wait.
      if (out.writableNeedDrain) await drained(out, o.abort);
    }
    for (const d of converter.end()) write(d);
  } catch {
    upstreamFailed = !o.abort.aborted || idle;
  } finally {
    clearInterval(ping);
    clearTimeout(idleTimer);
  }
  const clientAborted = o.abort.aborted && !idle;
  if (upstreamFailed && !out.destroyed && converter.errorFrames) {
    const message = cutMessage(idle, o.chinese);
    for (const f of converter.errorFrames(`${message} (request id: ${o.requestId})`)) write(f);
  } else if (upstreamFailed && !out.destroyed) {
    const message = cutMessage(idle, o.chinese);
    write(
      JSON.stringify({
        error: {
          message: `${message} (request id: ${o.requestId})`,
          type: 'upstream_error',
          code: idle ? 'upstream_timeout' : 'upstream_stream_error',
        },
      }),
    );
    write('[DONE]');
  }
  if (!out.destroyed) out.end();
  if (clientAborted) o.res.body.destroy();
  return { frtMs: Math.max(frtMs, 0), clientAborted, upstreamFailed };
}

/** What a stream cut by the gateway ends with, in the caller's language. */
function cutMessage(idle: boolean, chinese = false): string {
  if (chinese) return idle ? '上游响应超时，流已中断' : '上游连接中断，流已中断';
  return idle
    ? 'The upstream stopped answering; the stream was cut'
    : 'The upstream connection broke; the stream was cut';
}
