import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicAnswer, anthropicStreamEvents } from '../fake-upstream/anthropic.ts';
import { parseBehaviour } from '../fake-upstream/behaviour.ts';
import { nativeBehaviour, sendJson, sleep } from '../fake-upstream/native-http.ts';

/*
 * The bench's Anthropic upstream (phase e, the converted path): Anthropic's Messages stream as the
 * test fake writes it (anthropicStreamEvents: message_start, ping, content_block_start, one
 * text_delta per piece, content_block_stop, message_delta, message_stop), shaped like the OpenAI
 * fake's streams so both paths carry the same content: `chunks-<n>` text pieces `gap-<ms>` apart in
 * the model name (behaviour.ts's grammar), the opening events sent at once. Unlike the test fake it
 * keeps no record of the requests (a bench sends thousands).
 */

async function stream(res: ServerResponse, events: ReturnType<typeof anthropicStreamEvents>, gapMs: number) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const e of events) {
    if (res.destroyed) return;
    if (gapMs > 0 && e.type === 'content_block_delta') await sleep(gapMs);
    res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  }
  res.end();
}

export async function startBenchAnthropic(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/messages')
        return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const model = String(body.model ?? '');
      const key = String(req.headers['x-api-key'] ?? '');
      const b = parseBehaviour(model, key);
      const n = b.chunks ?? 5;
      const answer = anthropicAnswer({ ...body, tools: [], thinking: undefined }, nativeBehaviour(model, key));
      const text = Array.from({ length: n }, (_, i) => `w${i} `).join('');
      const message = { ...answer, content: [{ type: 'text', text }], usage: { ...answer.usage, output_tokens: n } };
      if (body.stream !== true) return sendJson(res, 200, message);
      stream(res, anthropicStreamEvents(message), b.gapMs ?? 0).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as its own process by the bench: `node --import tsx scripts/bench/fake-anthropic.ts [port]`.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const fake = await startBenchAnthropic(Number(process.argv[2] ?? 0));
  console.log(`fake Anthropic upstream listening on ${fake.url}`);
  process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
}
