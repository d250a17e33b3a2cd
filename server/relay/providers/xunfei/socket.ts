import WebSocket from 'ws';
import type { RelayCancel } from '../../cancel.ts';
import { syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import type { AttemptContext, UpstreamRequest } from '../types.ts';
import { gatherFrames, isLastFrame, parseSparkFrame, type SparkFrame, sparkErrorStatus } from './answer.ts';
import { parseSparkKey, signSparkUrl } from './sign.ts';

/*
 * Spark's transport: one WebSocket session per attempt. The URL is signed when the socket opens
 * (the signature holds the APIKey and the time, so it never sits in a request object that could be
 * logged); the request frame goes out on open; answer frames come back until one has status 2.
 * The relay reads the result like an HTTP answer (upstream.ts syntheticAnswer):
 * - a refused handshake: its status and body (401 bad signature, 403 stale date);
 * - an error frame before any text: the status of its code (answer.ts) and the frame;
 * - a stream: SSE, one `data:` event per frame, read by the adapter's stream converter;
 * - otherwise: the frames gathered into one, read by convertResponse (Spark cannot answer whole).
 * The relay's signal (client gone, stream idle) closes the socket.
 */

const HANDSHAKE_MS = 10_000;
/** The wait for the first frame (a whole answer's frames, not streamed), as the HTTP pool's headers timeout. */
const ANSWER_WAIT_MS = 300_000;

type Signal = AbortSignal | RelayCancel;

function onAbort(signal: Signal, run: () => void): () => void {
  signal.addEventListener('abort', run, { once: true });
  return () => signal.removeEventListener('abort', run);
}

/** Undici's code for an answer that did not start in time: the relay reads it as a 504 (attempts.ts). */
const answerTimeout = () =>
  Object.assign(new Error('Spark sent no answer in time'), { code: 'UND_ERR_HEADERS_TIMEOUT' });

/** The frames of one session, as they arrive; a handshake refusal or a socket failure ends them. */
class SparkSession {
  refused?: { status: number; body: string };
  private frames: string[] = [];
  private ended = false;
  private failure?: Error;
  private wake?: () => void;
  private readonly ws: WebSocket;
  private readonly stopAbort: () => void;

  constructor(url: string, first: string, signal: Signal) {
    this.ws = new WebSocket(url, { handshakeTimeout: HANDSHAKE_MS, perMessageDeflate: false });
    this.stopAbort = onAbort(signal, () => this.fail((signal as { reason?: Error }).reason ?? new Error('aborted')));
    this.ws.on('open', () => this.ws.send(first));
    this.ws.on('message', (data) => this.push(String(data)));
    this.ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => this.fail(err));
      res.on('end', () => {
        this.refused = { status: res.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8') };
        this.close();
      });
    });
    this.ws.on('error', (err) => this.fail(err));
    this.ws.on('close', () => this.close());
  }

  private push(frame: string) {
    this.frames.push(frame);
    this.wake?.();
  }

  /** A failure after the session ended (the socket's own error as it is dropped) changes nothing. */
  private fail(err: Error) {
    if (this.ended) return;
    this.failure = err;
    this.close();
  }

  /** Ends the session: the socket is dropped (Spark closes after the last frame anyway). */
  close() {
    if (!this.ended) {
      this.ended = true;
      this.stopAbort();
      this.ws.terminate();
    }
    this.wake?.();
  }

  /** The next frame's text; undefined once the session ended; throws when it failed. */
  async next(timeoutMs?: number): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    while (this.frames.length === 0 && !this.ended) {
      if (timeoutMs && !timer) timer = setTimeout(() => this.fail(answerTimeout()), timeoutMs);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    clearTimeout(timer);
    const frame = this.frames.shift();
    if (frame !== undefined) return frame;
    if (this.failure) throw this.failure;
    return undefined;
  }
}

const cutShort = () => new Error('Spark closed the connection before the answer ended');

// JSON has no raw line breaks outside strings: dropping them keeps each frame on one `data:` line.
const event = (frame: string) => Buffer.from(`data: ${frame.replace(/[\r\n]/g, '')}\n\n`);

/** The stream body: each frame as one SSE event, until the last; the socket closes when it stops. */
async function* sseOf(session: SparkSession, first: string, firstFrame: SparkFrame): AsyncGenerator<Buffer> {
  try {
    yield event(first);
    if (isLastFrame(firstFrame) || sparkErrorStatus(firstFrame)) return;
    for (;;) {
      const text = await session.next();
      if (text === undefined) throw cutShort();
      yield event(text);
      const frame = parseSparkFrame(text);
      if (isLastFrame(frame) || sparkErrorStatus(frame)) return;
    }
  } finally {
    session.close();
  }
}

export async function sendOverSparkSocket(
  ctx: AttemptContext,
  req: UpstreamRequest,
  signal: Signal,
): Promise<UpstreamResponse> {
  const url = signSparkUrl(req.url, parseSparkKey(ctx.key));
  if (signal.aborted) throw (signal as { reason?: Error }).reason ?? new Error('aborted');
  const session = new SparkSession(url, String(req.body ?? ''), signal);
  const frames: SparkFrame[] = [];
  for (;;) {
    let text: string | undefined;
    try {
      text = await session.next(ANSWER_WAIT_MS);
    } catch (err) {
      session.close();
      throw err;
    }
    if (text === undefined) {
      if (session.refused) return syntheticAnswer(session.refused.status, session.refused.body);
      throw cutShort();
    }
    const frame = parseSparkFrame(text);
    const failed = sparkErrorStatus(frame);
    if (failed) {
      session.close();
      return syntheticAnswer(failed, text);
    }
    if (ctx.stream) return syntheticAnswer(200, sseOf(session, text, frame), { 'content-type': 'text/event-stream' });
    frames.push(frame);
    if (isLastFrame(frame)) {
      session.close();
      return syntheticAnswer(200, JSON.stringify(gatherFrames(frames)));
    }
  }
}
