import type { EventStreamCodec } from '@smithy/core/event-streams';
import type { SseEvent } from '../types.ts';

/**
 * Bedrock streams answer in AWS's binary event stream (application/vnd.amazon.eventstream),
 * split into messages and decoded by the SDK's own code (a message may span reads).
 * InvokeModel's `chunk` events carry `{"bytes": base64}` holding one Anthropic streaming
 * event, which comes out as the SSE event the Anthropic converters already read; Converse's
 * named events come out under their names. An exception message (throttling, validation,
 * a model error mid-stream) becomes an Anthropic `error` event. A corrupt frame throws.
 * The SDK's codec loads with the first Bedrock stream.
 */
export async function* decodeEventStream(body: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent[]> {
  const [{ EventStreamCodec, getChunkedStream }, { fromUtf8, toUtf8 }] = await Promise.all([
    import('@smithy/core/event-streams'),
    import('@smithy/util-utf8'),
  ]);
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  for await (const frame of getChunkedStream(body)) {
    const e = eventOf(codec.decode(frame), toUtf8);
    if (e) yield [e];
  }
}

function eventOf(m: ReturnType<EventStreamCodec['decode']>, toUtf8: (b: Uint8Array) => string): SseEvent | undefined {
  const header = (name: string) => {
    const h = m.headers[name];
    return h?.type === 'string' ? h.value : undefined;
  };
  const body = toUtf8(m.body);
  if (header(':message-type') === 'event') {
    const type = header(':event-type');
    // Converse streams name their events (messageStart, contentBlockDelta...) and carry them as JSON.
    if (type !== 'chunk') return type ? { event: type, data: body } : undefined;
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
