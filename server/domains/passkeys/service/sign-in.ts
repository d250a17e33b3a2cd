import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { UserStatus } from '../../../../shared/constants.ts';
import type { AuthenticationCredential } from '../../../../shared/schemas/passkeys.ts';
import { AppError, badRequest } from '../../../errors.ts';
import { findLiveUserById } from '../../users/users.repo.ts';
import { loginUserView } from '../../users/users.view.ts';
import { findPasskeyByCredentialId } from '../passkeys.repo.ts';
import { CHALLENGE_TTL_S, userIdOfHandle } from '../passkeys.rules.ts';
import { type CeremonySite, ceremonySteps, type PasskeysCtx } from './context.ts';

/** Signing in with a passkey alone (a discoverable credential): no username, no password. */
export function createPasskeySignIn(ctx: PasskeysCtx) {
  const { site, keepChallenge, takeKept, checkAssertion } = ceremonySteps(ctx);
  const { db } = ctx;
  return {
    /** Sign-in without a username: any passkey of this site may answer (a discoverable credential). */
    async loginBegin(s: CeremonySite) {
      const rp = site(s.origin);
      const opts = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: rp.userVerification,
        timeout: CHALLENGE_TTL_S * 1000,
      });
      await keepChallenge(s, 'login', 0, opts.challenge);
      return opts;
    },

    /** The signed-in user's login answer; the transport then starts the session. */
    async loginFinish(s: CeremonySite, credential: AuthenticationCredential) {
      const rp = site(s.origin);
      const expectedChallenge = await takeKept(s, 'login', 0);
      const row = await findPasskeyByCredentialId(db, credential.id);
      if (!row) throw badRequest('passkey.verify_failed');
      const handleUser = userIdOfHandle(credential.response.userHandle);
      if (handleUser !== undefined && handleUser !== Number(row.user_id)) throw badRequest('passkey.verify_failed');
      const user = await findLiveUserById(db, Number(row.user_id));
      if (!user) throw badRequest('passkey.verify_failed');
      // Checked before the signature: a disabled user learns only that, and the counter does not move.
      if (user.status !== UserStatus.Enabled) throw new AppError('FORBIDDEN', 'auth.user_banned');
      await checkAssertion(rp, row, credential, expectedChallenge);
      return loginUserView(user);
    },
  };
}
