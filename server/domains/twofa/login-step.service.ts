import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserStatus } from '../../../shared/constants.ts';
import type { AppDeps } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { AppError, badRequest, isAppError } from '../../errors.ts';
import { createSignInLimits } from '../auth/sign-in-limits.service.ts';
import { startSession } from '../auth/session.service.ts';
import { findLiveUserById } from '../users/users.repo.ts';
import { loginUserView } from '../users/users.view.ts';
import { findPendingLogin, insertPendingLogin, takePendingLogin } from './twofa.repo.ts';
import { PENDING_LOGIN_TTL_S } from './twofa.rules.ts';

/*
 * The second step of a password sign-in, for both adapters. A right password of a user with two-factor
 * on starts no session: the server keeps a pending sign-in for five minutes, bound to this browser by a
 * signed HttpOnly cookie (new-api keeps it in its session cookie), and POST /api/user/login/2fa with a
 * TOTP or backup code turns it into a session, once.
 */

const PENDING_COOKIE = 'twofa_pending';

/** What the login call answers instead of the user (new-api's shape; its console then asks for the code). */
export interface SecondStepNeeded {
  require_2fa: true;
  expires_at: number;
}

export async function startSecondStep(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<SecondStepNeeded> {
  const id = randomBytes(24).toString('base64url');
  const now = nowSeconds();
  const expiresAt = now + PENDING_LOGIN_TTL_S;
  await insertPendingLogin(deps.db, { id, user_id: userId, expires_at: expiresAt }, now);
  reply.setCookie(PENDING_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: PENDING_LOGIN_TTL_S,
    signed: true,
  });
  return { require_2fa: true, expires_at: expiresAt };
}

function pendingId(req: FastifyRequest): string | undefined {
  const cookie = req.cookies[PENDING_COOKIE];
  if (!cookie) return undefined;
  const unsigned = req.unsignCookie(cookie);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/** The code completes the sign-in: the session starts and the answer is a login's. */
export async function finishSecondStep(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, code: string) {
  // The address's sign-in lock covers this step too; the account has its own (five wrong codes, twofa.service.ts).
  const limits = createSignInLimits(deps);
  await limits.assertOpen({ ip: req.ip });
  const id = pendingId(req);
  const pending = id === undefined ? undefined : await findPendingLogin(deps.db, id, nowSeconds());
  if (id === undefined || !pending) throw badRequest('twofa.session_expired');
  const userId = Number(pending.user_id);
  const user = await findLiveUserById(deps.db, userId);
  if (!user) throw badRequest('twofa.session_expired');
  if (user.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', 'auth.user_banned');
  await deps.services.twoFactor.verify(userId, code).catch(async (err: unknown) => {
    if (isAppError(err) && err.messageCode === 'twofa.wrong_code') await limits.countFailure({ ip: req.ip });
    throw err;
  });
  // Single use: of two calls racing with right codes, one signs in.
  if (!(await takePendingLogin(deps.db, id))) throw badRequest('twofa.session_expired');
  reply.clearCookie(PENDING_COOKIE, { path: '/' });
  await startSession(deps.db, req, reply, userId);
  return loginUserView(user);
}
