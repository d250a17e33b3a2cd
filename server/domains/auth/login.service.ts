import { UserStatus } from '../../../shared/constants.ts';
import { type LoginInput, loginInput } from '../../../shared/schemas/users.ts';
import { AppError, badRequest, tooManyRequests } from '../../errors.ts';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './password.service.ts';
import { findLiveUserByLogin } from './auth.repo.ts';
import type { AuthDeps } from './auth.deps.ts';
import { updateUser } from '../users/users.repo.ts';
import { loginUserView, type LoginUserView } from '../users/users.view.ts';
import { accountKeyOf, createSignInLimits } from './sign-in-limits.service.ts';
import { checkHumanVerification, type HumanClient } from './verification.service.ts';

/** Strict per-IP limit on sign-ups (mass registration); sign-in has its own (sign-in-limits.service.ts). */
export const AUTH_RATE_LIMIT = { limit: 10, windowMs: 60_000 };

export async function throttleAuth(d: AuthDeps, action: 'register', ip: string): Promise<void> {
  const decision = await d.rateLimits.take(`${action}:${ip}`, AUTH_RATE_LIMIT.limit, AUTH_RATE_LIMIT.windowMs);
  if (!decision.allowed) throw tooManyRequests();
}

/** Who is asking, as the transports know it. */
export type ClientInfo = HumanClient;

export function createLoginService(d: AuthDeps) {
  const limits = createSignInLimits(d);
  return {
    /** Checks the password (username or e-mail); the transport then starts the session for the returned id. */
    async login(raw: LoginInput, client: ClientInfo): Promise<LoginUserView> {
      await limits.assertOpen({ ip: client.ip });
      const input = loginInput.parse(raw);
      if (!d.options.get('PasswordLoginEnabled')) throw badRequest('login.password_disabled');
      if (input.username === '' || input.password === '') throw badRequest('login.enter_credentials');
      await checkHumanVerification(d.options, client);

      const user = await findLiveUserByLogin(d.db, input.username);
      // A locked account is refused before its password is checked, even a right one (the lock is the point).
      const subject = { account: accountKeyOf(user?.id, input.username), ip: client.ip };
      await limits.assertOpen(subject);
      if (!user) {
        await burnPasswordCheck(input.password);
        await limits.countFailure(subject);
        throw badRequest('login.wrong_credentials');
      }
      if (!(await verifyPassword(user.password, input.password))) {
        await limits.countFailure(subject);
        throw badRequest('login.wrong_credentials');
      }
      // Told only after a correct password, so the ban does not reveal that an account exists.
      if (user.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', 'auth.user_banned');
      if (needsRehash(user.password)) await updateUser(d.db, user.id, { password: await hashPassword(input.password) });
      return loginUserView(user);
    },
  };
}
