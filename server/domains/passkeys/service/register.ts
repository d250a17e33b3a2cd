import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticatorTransport } from '@simplewebauthn/server';
import type { RegistrationCredential } from '../../../../shared/schemas/passkeys.ts';
import { nowSeconds } from '../../../db/time.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { findLiveUserById } from '../../users/users.repo.ts';
import { findPasskeyByCredentialId, findPasskeyOfUser, replacePasskey } from '../passkeys.repo.ts';
import { CHALLENGE_TTL_S, userHandleOf } from '../passkeys.rules.ts';
import { type CeremonySite, ceremonySteps, type PasskeysCtx, refused, transportsOf } from './context.ts';

/** Registering a passkey (replacing the one the user had): options for navigator.credentials.create, then its answer. */
export function createPasskeyRegistration(ctx: PasskeysCtx) {
  const { site, keepChallenge, takeKept } = ceremonySteps(ctx);
  const { db } = ctx;
  return {
    async registerBegin(userId: number, s: CeremonySite) {
      const rp = site(s.origin);
      const user = await findLiveUserById(db, userId);
      if (!user) throw notFound('user.not_found');
      const existing = await findPasskeyOfUser(db, userId);
      const opts = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.username,
        userDisplayName: user.display_name || user.username,
        userID: userHandleOf(userId),
        timeout: CHALLENGE_TTL_S * 1000,
        attestationType: 'none',
        excludeCredentials: existing ? [{ id: existing.credential_id, transports: transportsOf(existing) }] : [],
        authenticatorSelection: {
          residentKey: 'required',
          requireResidentKey: true,
          userVerification: rp.userVerification,
          authenticatorAttachment: rp.attachment,
        },
      });
      await keepChallenge(s, 'register', userId, opts.challenge);
      return opts;
    },

    async registerFinish(userId: number, s: CeremonySite, credential: RegistrationCredential): Promise<void> {
      const rp = site(s.origin);
      const expectedChallenge = await takeKept(s, 'register', userId);
      let info;
      try {
        const result = await verifyRegistrationResponse({
          response: {
            ...credential,
            response: {
              ...credential.response,
              transports: credential.response.transports as AuthenticatorTransport[] | undefined,
            },
          },
          expectedChallenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          requireUserVerification: rp.userVerification === 'required',
        });
        if (!result.verified) throw new Error('registration not verified');
        info = result.registrationInfo;
      } catch (err) {
        throw refused(err);
      }
      const owner = await findPasskeyByCredentialId(db, info.credential.id);
      if (owner && Number(owner.user_id) !== userId) throw badRequest('passkey.verify_failed');
      await replacePasskey(db, {
        user_id: userId,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        sign_count: info.credential.counter,
        transports: JSON.stringify(info.credential.transports ?? []),
        attachment: credential.authenticatorAttachment ?? '',
        aaguid: info.aaguid,
        backup_eligible: info.credentialDeviceType === 'multiDevice' ? 1 : 0,
        backup_state: info.credentialBackedUp ? 1 : 0,
        created_at: nowSeconds(),
        last_used_at: null,
      });
    },
  };
}
