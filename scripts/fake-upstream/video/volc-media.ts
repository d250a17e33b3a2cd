import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { labelledMp4, sendRanged } from './shared.ts';

/*
 * The files the Volcengine fakes (Jimeng, Ark) hand out: a small real MP4 that plays (the committed
 * fixture plus a box naming the job, about 4 KB) served from a pre-signed URL, as TOS serves them:
 * a URL without its signature, or past its expiry, is refused with TOS's XML AccessDenied; `Range`
 * is honoured (206 with Content-Range, 416 when out of bounds) so a player can seek.
 */

/** A job's video: the playable fixture plus a `free` box naming the job, so each job's bytes differ. */
export const fakeMp4 = (jobId: string): Buffer => labelledMp4(`switchyard fake volcengine video ${jobId}`);

/**
 * Where a Volcengine job (Jimeng or Ark) is after `elapsed` ms of the fake's clock: one step queued,
 * two generating, then done (or failed, when it was told to fail).
 */
export function volcPhase(elapsed: number, stepMs: number): 'queued' | 'running' | 'done' {
  const step = Math.floor(elapsed / stepMs);
  return step < 1 ? 'queued' : step < 3 ? 'running' : 'done';
}

const SIGNING_KEY = 'fake-tos-signing-key';
const sign = (path: string, expires: number) =>
  createHmac('sha256', SIGNING_KEY).update(`${path}\n${expires}`).digest('hex');

/** A pre-signed URL for a job's file on `base`, valid `ttlSec` from `now` (ms). */
export function signedFileUrl(base: string, jobId: string, now: number, ttlSec = 86_400): string {
  const path = `/tos/video/${encodeURIComponent(jobId)}.mp4`;
  const expires = Math.floor(now / 1000) + ttlSec;
  return `${base}${path}?X-Tos-Expires=${expires}&X-Tos-Signature=${sign(path, expires)}`;
}

const tosError = (res: ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

/**
 * Serves GET/HEAD /tos/video/<id>.mp4 when the URL's signature holds; returns false for any other
 * path so the fake's API handler answers. `downloads` counts each served body (tests read it).
 */
export function serveSignedFile(
  req: IncomingMessage,
  res: ServerResponse,
  now: number,
  known: (jobId: string) => boolean,
  downloads: { count: number; ranges: string[] },
): boolean {
  const u = new URL(req.url ?? '/', 'http://x');
  const m = /^\/tos\/video\/([^/]+)\.mp4$/.exec(u.pathname);
  if (!m) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    tosError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    return true;
  }
  const expires = Number(u.searchParams.get('X-Tos-Expires'));
  const signature = u.searchParams.get('X-Tos-Signature') ?? '';
  if (!signature || signature !== sign(u.pathname, expires)) {
    tosError(
      res,
      403,
      'AccessDenied',
      'The request signature we calculated does not match the signature you provided.',
    );
    return true;
  }
  if (expires * 1000 < now) {
    tosError(res, 403, 'AccessDenied', 'Request has expired.');
    return true;
  }
  const jobId = decodeURIComponent(m[1]);
  if (!known(jobId)) {
    tosError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    return true;
  }
  if (req.headers.range) downloads.ranges.push(req.headers.range);
  if (req.method === 'GET') downloads.count++;
  sendRanged(req, res, fakeMp4(jobId));
  return true;
}
