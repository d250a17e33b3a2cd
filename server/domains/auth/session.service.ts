import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role, UserStatus } from '../../../shared/constants.ts';
import type { AuthUser, Infra } from '../../context.ts';
import {
  deleteSession,
  deleteUserSessions,
  findAuthUserByAccessToken,
  findAuthUserBySession,
  insertSession,
} from './session.repo.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { AppError, forbidden, unauthorized } from '../../errors.ts';

export const SESSION_COOKIE = 'session';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * Sessions live in the database; the cookie carries a random id, signed by
 * @fastify/cookie with the session secret. Logging out deletes the row, so a
 * copied cookie stops working. Role and status are read with the session on
 * every request, so a ban or a demotion takes effect at once.
 */
export async function startSession(db: Db, req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const id = randomBytes(24).toString('base64url');
  const now = nowSeconds();
  await insertSession(db, { id, user_id: userId, created_at: now, expires_at: now + SESSION_MAX_AGE_S });
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: SESSION_MAX_AGE_S,
    signed: true,
  });
}

export async function endSession(db: Db, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const id = sessionId(req);
  if (id) await deleteSession(db, id);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Ends every session of a user (password change, account deletion). */
export const endAllSessions = (db: Db, userId: number) => deleteUserSessions(db, userId, nowSeconds());

/** The id of this browser's session cookie (valid signature), whether or not the session still exists. */
export function sessionId(req: FastifyRequest): string | undefined {
  const cookie = req.cookies[SESSION_COOKIE];
  if (!cookie) return undefined;
  const unsigned = req.unsignCookie(cookie);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/** The session's user, or undefined; never throws (public pages call it). */
export async function sessionUser(infra: Infra, req: FastifyRequest): Promise<AuthUser | undefined> {
  const id = sessionId(req);
  return id === undefined ? undefined : findAuthUserBySession(infra.db, id, nowSeconds());
}

/**
 * new-api's console auth for the REST adapter: a session, or a system access
 * token in `Authorization`; either way the `New-Api-User` header must name the
 * same user (HTTP 401 otherwise), which existing clients always send.
 */
export async function restUser(infra: Infra, req: FastifyRequest): Promise<AuthUser> {
  let user = await sessionUser(infra, req);
  if (!user) {
    const header = req.headers.authorization;
    if (!header) throw unauthorized('auth.no_access_token');
    const token = header.replace(/^Bearer /, '');
    user = await findAuthUserByAccessToken(infra.db, token);
    // HTTP 200 on REST (api-contract §0.3): a 401 would make a legacy console sign its user out.
    if (!user) throw forbidden('auth.invalid_access_token');
  }
  const claimed = req.headers['new-api-user'];
  if (claimed === undefined || claimed === '') throw unauthorized('auth.no_user_header');
  if (String(claimed) !== String(user.id)) throw unauthorized('auth.user_header_mismatch');
  return user;
}

/** Role and status rules shared by every transport. */
export function requireRole(user: AuthUser | undefined, minRole: number): AuthUser {
  if (!user) throw unauthorized();
  if (user.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', 'auth.user_banned');
  if (user.role < minRole) throw forbidden();
  return user;
}

export const minRoleOf = { user: Role.Common, admin: Role.Admin, root: Role.Root } as const;
export type AuthLevel = 'public' | keyof typeof minRoleOf;
