import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AuthenticationCredential } from '../../../../shared/schemas/passkeys.ts';
import { nowSeconds } from '../../../db/time.ts';
import { badRequest } from '../../../errors.ts';
import { putChallenge } from '../passkeys.repo.ts';
import { CHALLENGE_TTL_S, VERIFY_READY_TTL_S } from '../passkeys.rules.ts';
import { type CeremonySite, ceremonySteps, challengeKey, type PasskeysCtx, transportsOf } from './context.ts';

/** Re-verifying a signed-in user with their passkey before a sensitive action (new-api's secure verification). */
export function createPasskeyVerification(ctx: PasskeysCtx) {
  const { site, keepChallenge, takeKept, passkeyOf, checkAssertion, consumeVerified } = ceremonySteps(ctx);
  const { db } = ctx;
  return {
    /** Re-verification of the signed-in user: only their own passkey may answer. */
    async verifyBegin(userId: number, s: CeremonySite) {
      const rp = site(s.origin);
      const row = await passkeyOf(userId);
      const opts = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: rp.userVerification,
        timeout: CHALLENGE_TTL_S * 1000,
        allowCredentials: [{ id: row.credential_id, transports: transportsOf(row) }],
      });
      await keepChallenge(s, 'verify', userId, opts.challenge);
      return opts;
    },

    /**
     * Leaves a one-minute mark that POST /api/verify turns into a verified session (new-api's two steps);
     * `consumeVerified` reads it once.
     */
    async verifyFinish(userId: number, s: CeremonySite, credential: AuthenticationCredential): Promise<void> {
      const rp = site(s.origin);
      const expectedChallenge = await takeKept(s, 'verify', userId);
      const row = await passkeyOf(userId);
      if (credential.id !== row.credential_id) throw badRequest('passkey.verify_failed');
      await checkAssertion(rp, row, credential, expectedChallenge);
      const now = nowSeconds();
      await putChallenge(
        db,
        {
          id: challengeKey(s, 'verified'),
          user_id: userId,
          challenge: 'verified',
          expires_at: now + VERIFY_READY_TTL_S,
        },
        now,
      );
    },

    consumeVerified,

    /**
     * POST /api/verify {method: 'passkey'}: passes when this browser finished a passkey verification for the
     * user in the last minute (new-api's second step); the mark is used up either way.
     */
    async confirmVerified(userId: number, flow: string): Promise<void> {
      await passkeyOf(userId);
      if (!(await consumeVerified(userId, flow))) throw badRequest('passkey.verify_failed');
    },
  };
}
