import type { FastifyRequest } from 'fastify';
import type { AuthUser, Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { AppError, badRequest, unauthorized } from '../../errors.ts';
import { sessionId } from '../auth/session.service.ts';
import { findSessionVerification, putSessionVerification } from './twofa.repo.ts';
import { SECURE_VERIFY_TTL_S } from './twofa.rules.ts';

/**
 * One way of proving it is really the signed-in person (new-api's UniversalVerify methods). It throws
 * an AppError when the proof fails. `code` is what the body carried (the 2FA code; empty for passkey,
 * whose proof is the passkey verification this browser has just finished).
 */
export type VerifyMethod = (input: { user: AuthUser; req: FastifyRequest; code: string }) => Promise<unknown>;

export type SecureVerifyService = ReturnType<typeof createSecureVerifyService>;

/**
 * A fresh check before a sensitive action (POST /api/verify, then e.g. a channel's key): a session that
 * passed one stays verified for five minutes. Methods plug in by name: '2fa' here (services.ts),
 * 'passkey' from the passkeys domain (`registerMethod`).
 */
export function createSecureVerifyService(infra: Pick<Infra, 'db'>) {
  const methods = new Map<string, VerifyMethod>();

  /** Only a console session can be verified: an access token has no session to mark (new-api refuses too). */
  const sessionOf = (req: FastifyRequest) => {
    const id = sessionId(req);
    if (id === undefined) throw unauthorized('verify.session_required');
    return id;
  };

  return {
    registerMethod(name: string, check: VerifyMethod): void {
      methods.set(name, check);
    },

    async verify(user: AuthUser, req: FastifyRequest, method: string, code: string) {
      const session = sessionOf(req);
      const check = methods.get(method);
      if (!check) throw badRequest('verify.method_unsupported', { method });
      await check({ user, req, code });
      const now = nowSeconds();
      const expiresAt = now + SECURE_VERIFY_TTL_S;
      await putSessionVerification(
        infra.db,
        { session_id: session, user_id: user.id, method, expires_at: expiresAt },
        now,
      );
      return { verified: true, method, expires_at: expiresAt };
    },

    /** Refuses unless this session passed a check in the last five minutes (HTTP 403, as new-api answers). */
    async requireVerified(user: AuthUser, req: FastifyRequest): Promise<void> {
      const session = sessionId(req);
      const row = session && (await findSessionVerification(infra.db, session, user.id, nowSeconds()));
      if (!row)
        throw new AppError('FORBIDDEN', 'verify.required', {}, { realStatus: true, restCode: 'VERIFICATION_REQUIRED' });
    },
  };
}
