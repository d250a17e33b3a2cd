import { createParser } from 'eventsource-parser';
import { syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import type { SseEvent } from '../types.ts';
import type { TextPiece } from './text-answer.ts';

/*
 * App platforms (Dify, Coze) are always asked for a stream: Dify's agent apps refuse blocking mode and
 * Coze's non-streamed chat is an async task to poll. For a caller that did not ask for a stream, the
 * SSE answer is read whole here and handed to convertResponse as text; a failure event inside it
 * makes the attempt fail with a real status (retry, auto-disable, the caller's dialect), as an HTTP
 * error answer would.
 */

/** The events of a whole SSE text. */
export function sseEventsOf(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => out.push({ event: e.event, data: e.data }) });
  parser.feed(text);
  parser.feed('\n\n');
  return out;
}

/** A failure found in a gathered stream: the attempt's status and the error body mapError reads. */
export interface GatheredFailure {
  status: number;
  body: string;
}

/** Reads a 2xx SSE answer whole; the first event `failureOf` recognises becomes the attempt's answer. */
export async function gatherStream(
  res: UpstreamResponse,
  failureOf: (e: SseEvent) => GatheredFailure | undefined,
): Promise<UpstreamResponse> {
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode < 200 || res.statusCode >= 300 || !type.includes('text/event-stream')) return res;
  const text = await res.body.text();
  for (const e of sseEventsOf(text)) {
    const failure = failureOf(e);
    if (failure) return syntheticAnswer(failure.status, failure.body);
  }
  return syntheticAnswer(200, text, { 'content-type': 'text/event-stream' });
}

/** A gathered stream as one piece: the deltas joined, the last usage and finish reason. */
export function gatheredPiece(text: string, read: (e: SseEvent) => TextPiece[]): TextPiece {
  const content: string[] = [];
  const reasoning: string[] = [];
  const piece: TextPiece = {};
  for (const e of sseEventsOf(text))
    for (const p of read(e)) {
      if (p.content) content.push(p.content);
      if (p.reasoning) reasoning.push(p.reasoning);
      if (p.usage) piece.usage = p.usage;
      if (p.finish) piece.finish = p.finish;
    }
  piece.content = content.join('');
  if (reasoning.length) piece.reasoning = reasoning.join('');
  return piece;
}

/**
 * For a caller that asked for a stream: the events are read until the first one `hasContent` or
 * `failureOf` recognises. A failure before any content fails the attempt (another channel may answer,
 * nothing is charged); otherwise the stream goes on with the events already read replayed first.
 * The answer's headers wait for the first delta, as with providers that send their headers with it.
 */
export async function failBeforeContent(
  res: UpstreamResponse,
  failureOf: (e: SseEvent) => GatheredFailure | undefined,
  hasContent: (e: SseEvent) => boolean,
): Promise<UpstreamResponse> {
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode < 200 || res.statusCode >= 300 || !type.includes('text/event-stream')) return res;
  const chunks = (res.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) });
  const decoder = new TextDecoder();
  async function* replay() {
    try {
      yield* held;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    } finally {
      res.body.destroy();
    }
  }
  const streamed = () => syntheticAnswer(200, replay(), { 'content-type': 'text/event-stream' });
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    held.push(next.value);
    parser.feed(decoder.decode(next.value, { stream: true }));
    for (const e of events.splice(0)) {
      const failure = failureOf(e);
      if (failure) {
        res.body.destroy();
        return syntheticAnswer(failure.status, failure.body);
      }
      if (hasContent(e)) return streamed();
    }
  }
  return streamed();
}
