import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeUpstream, RecordedRequest } from './server.ts';

export type FakeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
  /** The body as it arrived (a signature covers these exact bytes). */
  raw: string,
) => Promise<void>;

/** A loopback HTTP server that records every request (JSON bodies) for the Anthropic and Gemini fakes. */
export async function startRecordingServer(handler: FakeHandler, port = 0): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        if (chunks.length) body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        aborted: false,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.aborted = true;
      });
      handler(req, res, body, raw).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Model/key tokens joined with `+` (see behaviour.ts): fail-<status>, cache-<n>, cachew-<n>, no-usage;
 * `prompt-cache` (Anthropic): cache reads and writes follow the request's breakpoints (anthropic-cache.ts).
 */
export function nativeBehaviour(model: string, key: string) {
  const parts = `${model}+${key}`.split('+');
  const num = (re: RegExp) => {
    for (const p of parts) {
      const m = p.match(re);
      if (m) return Number(m[1]);
    }
    return 0;
  };
  return {
    failStatus: num(/^fail-(\d{3})$/) || undefined,
    cacheRead: num(/^cache-(\d+)$/),
    cacheWrite: num(/^cachew-(\d+)$/),
    badKey: parts.includes('bad-key'),
    promptCache: parts.includes('prompt-cache'),
    /** A stream whose connection dies after the content, before the final usage (message_delta). */
    resetMidStream: parts.includes('reset-mid-stream'),
  };
}

/** About 4 characters a token plus 3 per message, over every string in the messages/contents. */
export function fakeNativePrompt(messages: unknown, system: unknown): number {
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) if (k === 'text' || k === 'content' || k === 'parts') walk(x);
  };
  walk(system);
  const list = Array.isArray(messages) ? messages : [];
  list.forEach(walk);
  return 3 * list.length + Math.ceil(strings.join('').length / 4) + 3;
}

export const PIECES = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
