import { EventStreamCodec, getChunkedStream } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseEvent } from '../types.ts';

/**
 * Bedrock's `invoke-with-response-stream` answers in AWS's binary event stream
 * (application/vnd.amazon.eventstream), split into messages and decoded by the SDK's
 * own code (a message may span reads). Each `chunk` event carries `{"bytes": base64}`
 * holding one Anthropic streaming event, which comes out as the SSE event the Anthropic
 * converters already read. An exception message (throttling, validation, a model error
 * mid-stream) becomes an Anthropic `error` event. A corrupt frame throws.
 */
export async function* decodeEventStream(body: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  for await (const frame of getChunkedStream(body)) {
    const e = eventOf(codec.decode(frame));
    if (e) yield [e];
  }
}

function eventOf(m: ReturnType<EventStreamCodec['decode']>): SseEvent | undefined {
  const header = (name: string) => {
    const h = m.headers[name];
    return h?.type === 'string' ? h.value : undefined;
  };
  const body = toUtf8(m.body);
  if (header(':message-type') === 'event') {
    if (header(':event-type') !== 'chunk') return undefined;
    const data = Buffer.from((JSON.parse(body) as { bytes?: string }).bytes ?? '', 'base64').toString('utf8');
    return { event: (JSON.parse(data) as { type?: string }).type, data };
  }
  const type = header(':exception-type') ?? header(':error-code') ?? 'api_error';
  let message = header(':error-message') ?? body;
  try {
    message = (JSON.parse(body) as { message?: string }).message ?? message;
  } catch {
    // A plain-text exception body: kept as it is.
  }
  return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) };
}
