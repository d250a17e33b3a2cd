import { describe, expect, it } from 'vitest';
import { errorText, readChatStream } from './chat-stream.ts';

const body = (parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });
const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

describe('playground stream reader', () => {
  it('appends deltas split across network chunks and stops at [DONE]', async () => {
    const got: string[] = [];
    const whole = chunk('Hel') + chunk('lo') + 'data: [DONE]\n\n' + chunk('ignored');
    const end = await readChatStream(body([whole.slice(0, 17), whole.slice(17)]), {
      onDelta: (d) => got.push(d.content ?? ''),
    });
    expect(end).toEqual({ kind: 'done' });
    expect(got.join('')).toBe('Hello');
  });

  it('reports an error event and a stream closed without [DONE]', async () => {
    const err = await readChatStream(body([`data: {"error":{"message":"quota exhausted"}}\n\n`]), {
      onDelta: () => {},
    });
    expect(err).toEqual({ kind: 'error', message: 'quota exhausted' });
    const closed = await readChatStream(body([chunk('x')]), { onDelta: () => {} });
    expect(closed).toEqual({ kind: 'closed' });
  });

  it('reads the message of a failed answer', async () => {
    expect(await errorText(new Response('{"error":{"message":"no channel"}}', { status: 503 }))).toBe('no channel');
    expect(await errorText(new Response('{"success":false,"message":"login"}', { status: 401 }))).toBe('login');
    expect(await errorText(new Response('', { status: 502 }))).toBe('HTTP 502');
  });
});
