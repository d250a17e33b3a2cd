import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskRecordedRequest } from '../task-clock.ts';

/*
 * What every video fake shares, so each one keeps only its upstream's own protocol rules: the
 * playable MP4 it hands out, serving a file with Range as a CDN does, the phases a job walks on the
 * fake's clock, a listening server that buffers each body, and the handle tests drive a fake with.
 */

/** The committed 4 KB H.264 MP4 (`ftyp` isom first) that Chromium plays, so the console's player works on it. */
export const FAKE_MP4: Buffer = readFileSync(new URL('../../../test/fixtures/video/tiny.mp4', import.meta.url));

/** A JPEG's first bytes, enough for a cover / thumbnail. */
export const FAKE_JPEG: Buffer = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

/** An ISO BMFF box: a 32-bit size, the 4-letter type, the payload. */
export function mp4Box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/**
 * One job's video: the playable fixture plus a top-level `free` box carrying `label`, so every job's
 * bytes differ (a test can tell downloads apart and check a range is the right slice) and it still plays.
 */
export function labelledMp4(label: string): Buffer {
  return Buffer.concat([FAKE_MP4, mp4Box('free', Buffer.from(label))]);
}

/** Parses `bytes=a-b`, `bytes=a-`, `bytes=-n` against a length: the slice, null when unsatisfiable, undefined when there is no range. */
export function parseRange(
  header: string | undefined,
  length: number,
): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, length - Number(m[2]));
    end = length - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? length - 1 : Math.min(Number(m[2]), length - 1);
  }
  if (start >= length || start > end) return null;
  return { start, end };
}

/**
 * Sends `bytes` as the upstreams' storage does: a single `Range` answers 206 with Content-Range, an
 * unsatisfiable one 416 with `bytes *\/len`, a header that is not a byte range is ignored (RFC 9110);
 * HEAD gets the headers only.
 */
export function sendRanged(
  req: Pick<IncomingMessage, 'headers'> & { method?: string },
  res: ServerResponse,
  bytes: Buffer,
  type = 'video/mp4',
): void {
  const range = parseRange(req.headers.range, bytes.length);
  const headers: Record<string, string> = { 'content-type': type, 'accept-ranges': 'bytes' };
  if (range === null) {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${bytes.length}` });
    res.end();
    return;
  }
  const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${bytes.length}`;
  headers['content-length'] = String(part.length);
  res.writeHead(range ? 206 : 200, headers);
  res.end(req.method === 'HEAD' ? undefined : part);
}

export type FakePhase = 'queued' | 'waiting' | 'running' | 'done' | 'failed';

/**
 * Where a job is after `elapsed` ms of the fake's clock: one step queued, one waiting, three running
 * (progress 25/50/75), then done; a job marked to fail fails in its first running step.
 */
export function phaseAt(elapsed: number, stepMs: number, fails: boolean): { phase: FakePhase; progress: number } {
  const step = Math.floor(elapsed / stepMs);
  if (step < 1) return { phase: 'queued', progress: 0 };
  if (step < 2) return { phase: 'waiting', progress: 0 };
  if (fails) return { phase: 'failed', progress: 25 };
  if (step < 5) return { phase: 'running', progress: (step - 1) * 25 };
  return { phase: 'done', progress: 100 };
}

/** Whole ms for a job to get from submit to done (or failed), for tests that move the clock. */
export const stepsToFinish = (stepMs: number) => 6 * stepMs;

/** A JSON request body read as an object; `parsed` is false when the bytes are not JSON (an empty body is `{}`). */
export function jsonObjectOf(raw: Buffer): { body: Record<string, unknown>; parsed: boolean } {
  if (!raw.length) return { body: {}, parsed: true };
  try {
    return { body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, parsed: true };
  } catch {
    return { body: {}, parsed: false };
  }
}

/**
 * A server on 127.0.0.1 (or `host`) that buffers each request's body and hands it to `onRequest`;
 * a handler that throws or rejects answers 500 with `crashBody` of the error.
 */
export async function listenBuffered(
  opts: { port?: number; host?: string },
  onRequest: (req: IncomingMessage, res: ServerResponse, raw: Buffer) => void | Promise<void>,
  crashBody: (err: unknown) => unknown = (err) => ({ error: String(err) }),
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Promise.resolve()
        .then(() => onRequest(req, res, Buffer.concat(chunks)))
        .catch((err: unknown) => {
          if (res.headersSent) return res.destroy();
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(crashBody(err)));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The handle of a fake whose jobs walk `phaseAt` (Vidu, DashScope, MiniMax): what its tests drive. */
export interface FakeVideoJobs<T> {
  url: string;
  key: string;
  requests: TaskRecordedRequest[];
  tasks: Map<string, T>;
  advance(ms: number): void;
  /** Makes a job fail at its next running step. */
  fail(id: string): void;
  close(): Promise<void>;
}

export function videoJobsHandle<T extends { fails: boolean }>(
  srv: { url: string; requests: TaskRecordedRequest[]; close(): Promise<void> },
  key: string,
  tasks: Map<string, T>,
  clock: { advance(ms: number): void },
): FakeVideoJobs<T> {
  return {
    url: srv.url,
    key,
    requests: srv.requests,
    tasks,
    advance: clock.advance,
    fail(id) {
      const t = tasks.get(id);
      if (t) t.fails = true;
    },
    close: srv.close,
  };
}
