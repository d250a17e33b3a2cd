import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role, UserStatus } from '../../shared/constants.ts';
import type { AuthUser, Infra } from '../context.ts';
import { findAuthUserByAccessToken, findAuthUserById } from '../domains/users/auth-user.repo.ts';
import { AppError, forbidden, unauthorized } from '../errors.ts';

export const SESSION_COOKIE = 'session';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * Sessions are a signed cookie holding the user id and issue time (HMAC by
 * @fastify/cookie with the session secret). Role and status are re-read from the
 * database on each request, so a ban or a demotion takes effect at once.
 */
export function startSession(req: FastifyRequest, reply: FastifyReply, userId: number): void {
  reply.setCookie(SESSION_COOKIE, `${userId}.${Math.floor(Date.now() / 1000)}`, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: SESSION_MAX_AGE_S,
    signed: true,
  });
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

function sessionUserId(req: FastifyRequest): number | undefined {
  const cookie = req.cookies[SESSION_COOKIE];
  if (!cookie) return undefined;
  const unsigned = req.unsignCookie(cookie);
  if (!unsigned.valid || !unsigned.value) return undefined;
  const [id, issued] = unsigned.value.split('.').map(Number);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(issued)) return undefined;
  if (issued + SESSION_MAX_AGE_S < Date.now() / 1000) return undefined;
  return id;
}

/** The session's user, or undefined; never throws (public pages call it). */
export async function sessionUser(infra: Infra, req: FastifyRequest): Promise<AuthUser | undefined> {
  const id = sessionUserId(req);
  return id === undefined ? undefined : findAuthUserById(infra.db, id);
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
    if (!header) throw unauthorized('未登录且未提供 access token');
    const token = header.replace(/^Bearer /, '');
    user = await findAuthUserByAccessToken(infra.db, token);
    if (!user) throw unauthorized('access token 无效');
  }
  const claimed = req.headers['new-api-user'];
  if (claimed === undefined || claimed === '') throw unauthorized('无权进行此操作，未提供 New-Api-User');
  if (String(claimed) !== String(user.id)) throw unauthorized('无权进行此操作，New-Api-User 与登录用户不匹配');
  return user;
}

/** Role and status rules shared by every transport. */
export function requireRole(user: AuthUser | undefined, minRole: number): AuthUser {
  if (!user) throw unauthorized();
  if (user.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', '用户已被封禁');
  if (user.role < minRole) throw forbidden();
  return user;
}

export const minRoleOf = { user: Role.Common, admin: Role.Admin, root: Role.Root } as const;
export type AuthLevel = 'public' | keyof typeof minRoleOf;
