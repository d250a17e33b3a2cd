import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Shared machinery of the fake task upstreams (Midjourney-proxy, Suno): a virtual
 * clock that tests can move forward, the progress timeline every task follows,
 * and a tiny JSON HTTP server that records requests.
 */

export interface FakeTaskOptions {
  port?: number;
  host?: string;
  /** Length of one timeline step (ms of the virtual clock). */
  stepMs?: number;
}

export interface TaskRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** Where a task is at `elapsed` ms: NOT_START, SUBMITTED, then IN_PROGRESS 10%..90%, then done. */
export function timeline(elapsed: number, stepMs: number, failAt: number | null) {
  const step = Math.floor(elapsed / stepMs);
  if (step < 1) return { status: 'NOT_START', progress: '0%' };
  if (step < 2) return { status: 'SUBMITTED', progress: '0%' };
  const pct = Math.min(100, (step - 1) * 10);
  if (failAt !== null && pct >= failAt) return { status: 'FAILURE', progress: `${failAt}%` };
  if (pct >= 100) return { status: 'SUCCESS', progress: '100%' };
  return { status: 'IN_PROGRESS', progress: `${pct}%` };
}

export function createClock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    /** Moves the virtual time forward, e.g. past a whole timeline. */
    advance(ms: number) {
      offset += ms;
    },
  };
}

export type JsonHandler = (
  req: TaskRecordedRequest,
  res: ServerResponse,
) => { status: number; body: unknown } | 'handled' | null;

export const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A listening server that parses JSON bodies, records each request and asks `handle` for the answer. */
export async function startJsonServer(opts: FakeTaskOptions, handle: JsonHandler) {
  const requests: TaskRecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        if (chunks.length) body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const rec = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(rec);
      const out = handle(rec, res);
      if (out === 'handled') return;
      if (out === null) return sendJson(res, 404, { error: 'not found' });
      sendJson(res, out.status, out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
