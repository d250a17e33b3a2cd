import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.ts';
import { randomAlphanumeric } from '../../../random.ts';

/*
 * The OAuth `state` (api-contract §9): a random 12-char value the server keeps
 * and the provider echoes back, so a callback cannot be forged by a third site
 * (login CSRF). Kept in a signed HttpOnly cookie with the invite code, because
 * most callers have no session yet. SameSite=Lax: the browser comes back from
 * the provider by a cross-site navigation.
 */
const STATE_COOKIE = 'oauth_state';
const STATE_TTL_S = 600;

export interface OAuthState {
  state: string;
  aff: string;
}

export function issueState(req: FastifyRequest, reply: FastifyReply, aff: string): string {
  const state = randomAlphanumeric(12);
  reply.setCookie(STATE_COOKIE, JSON.stringify({ state, aff } satisfies OAuthState), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: STATE_TTL_S,
    signed: true,
  });
  return state;
}

/** The state this browser was given, or undefined (missing, tampered or expired cookie). */
export function readState(req: FastifyRequest): OAuthState | undefined {
  const cookie = req.cookies[STATE_COOKIE];
  if (!cookie) return undefined;
  const unsigned = req.unsignCookie(cookie);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const v = JSON.parse(unsigned.value) as Partial<OAuthState>;
    return typeof v.state === 'string' ? { state: v.state, aff: typeof v.aff === 'string' ? v.aff : '' } : undefined;
  } catch {
    return undefined;
  }
}

/** A state is good once. */
export const clearState = (reply: FastifyReply) => reply.clearCookie(STATE_COOKIE, { path: '/' });

/** Checks the echoed state against this browser's (HTTP 403 otherwise) and uses it up; gives the kept invite code. */
export function takeState(req: FastifyRequest, reply: FastifyReply, given: string): OAuthState {
  const kept = readState(req);
  if (!kept || given === '' || !safeEqual(kept.state, given))
    // HTTP 403 on REST too (api-contract §9), unlike new-api's other refusals.
    throw new AppError('FORBIDDEN', 'oauth.state_mismatch', {}, { detail: 'oauth_state_mismatch', realStatus: true });
  clearState(reply);
  return kept;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
