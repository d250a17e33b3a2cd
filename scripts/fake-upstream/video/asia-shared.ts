import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * What the Vidu, DashScope (Wan) and MiniMax (Hailuo) fakes share: the small playable MP4 each
 * serves with Range support, and the phases a job walks on the fake's clock.
 */

/** The committed 4 KB H.264 MP4 (`ftyp` isom first) that Chromium plays, so the console's player works on it. */
export const FAKE_MP4: Buffer = readFileSync(new URL('../../../test/fixtures/video/tiny.mp4', import.meta.url));

/** A JPEG's first bytes, enough for a cover / thumbnail. */
export const FAKE_JPEG: Buffer = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

/** Serves `bytes` honouring a single `Range: bytes=a-b` (206, 416 when out of bounds). */
export function serveBytes(
  req: { headers: IncomingMessage['headers'] },
  res: ServerResponse,
  bytes: Buffer,
  type: string,
) {
  const range = req.headers.range;
  const m = typeof range === 'string' ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && !m) {
    res.writeHead(416, { 'content-range': `bytes */${bytes.length}` });
    return res.end();
  }
  if (m) {
    let start = m[1] === '' ? bytes.length - Number(m[2]) : Number(m[1]);
    let end = m[1] === '' || m[2] === '' ? bytes.length - 1 : Number(m[2]);
    start = Math.max(0, start);
    end = Math.min(end, bytes.length - 1);
    if (start > end || start >= bytes.length) {
      res.writeHead(416, { 'content-range': `bytes */${bytes.length}` });
      return res.end();
    }
    res.writeHead(206, {
      'content-type': type,
      'content-length': String(end - start + 1),
      'content-range': `bytes ${start}-${end}/${bytes.length}`,
      'accept-ranges': 'bytes',
    });
    return res.end(bytes.subarray(start, end + 1));
  }
  res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length), 'accept-ranges': 'bytes' });
  res.end(bytes);
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
