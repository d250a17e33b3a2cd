import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { UserStatus } from '../../../shared/constants.ts';
import type { AuthenticationCredential, RegistrationCredential } from '../../../shared/schemas/passkeys.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findLiveUserById } from '../users/users.repo.ts';
import { type Actor, assertOutranks } from '../users/users.rules.ts';
import { loginUserView } from '../users/users.view.ts';
import {
  deletePasskeysOfUser,
  findPasskeyByCredentialId,
  findPasskeyOfUser,
  putChallenge,
  recordPasskeyUse,
  replacePasskey,
  takeChallenge,
} from './passkeys.repo.ts';
import {
  CHALLENGE_TTL_S,
  type CeremonyPurpose,
  relyingParty,
  userHandleOf,
  userIdOfHandle,
  VERIFY_READY_TTL_S,
} from './passkeys.rules.ts';

export type PasskeysService = ReturnType<typeof createPasskeysService>;

/**
 * Where a ceremony happens: the browser's flow id (a signed cookie, passkeys-flow.service.ts) that binds a
 * challenge to the browser that asked for it, and the origin the browser used.
 */
export interface CeremonySite {
  flow: string;
  origin: string;
}

type PasskeyRow = NonNullable<Awaited<ReturnType<typeof findPasskeyOfUser>>>;

const transportsOf = (row: PasskeyRow) => JSON.parse(row.transports) as AuthenticatorTransport[];

/** The library's refusal (wrong challenge, origin, signature, counter) in our words; its own stays as detail. */
const refused = (err: unknown) =>
  badRequest('passkey.verify_failed', {}, { technical: err instanceof Error ? err.message : String(err) });

/**
 * Passkeys (WebAuthn) for sign-in, one per user as in new-api: register, sign in with a discoverable
 * credential (no username), re-verify a signed-in user for sensitive actions, remove. Each ceremony's
 * challenge is kept server-side for two minutes, bound to one browser and purpose, and used at most once.
 */
export function createPasskeysService(infra: Infra, options: OptionsService) {
  const { db } = infra;

  function site(origin: string) {
    if (!options.get('passkey.enabled')) throw badRequest('passkey.disabled');
    return relyingParty(options.get, origin);
  }

  const challengeKey = (s: CeremonySite, purpose: CeremonyPurpose | 'verified') => `${s.flow}:${purpose}`;

  async function keepChallenge(s: CeremonySite, purpose: CeremonyPurpose, userId: number, challenge: string) {
    const now = nowSeconds();
    await putChallenge(
      db,
      { id: challengeKey(s, purpose), user_id: userId, challenge, expires_at: now + CHALLENGE_TTL_S },
      now,
    );
  }

  /** The challenge this browser was given for this purpose (and user); gone after this call either way. */
  async function takeKept(s: CeremonySite, purpose: CeremonyPurpose, userId: number): Promise<string> {
    const row = await takeChallenge(db, challengeKey(s, purpose), nowSeconds());
    if (!row || Number(row.user_id) !== userId) throw badRequest('passkey.challenge_missing');
    return row.challenge;
  }

  async function passkeyOf(userId: number): Promise<PasskeyRow> {
    const row = await findPasskeyOfUser(db, userId);
    if (!row) throw badRequest('passkey.not_registered');
    return row;
  }

  /** Checks an assertion against a stored passkey and records the use (the counter must move forward). */
  async function checkAssertion(
    rp: ReturnType<typeof site>,
    row: PasskeyRow,
    credential: AuthenticationCredential,
    expectedChallenge: string,
  ) {
    let info;
    try {
      const result = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: rp.userVerification === 'required',
        credential: {
          id: row.credential_id,
          publicKey: Buffer.from(row.public_key, 'base64url'),
          counter: Number(row.sign_count),
          transports: transportsOf(row),
        },
      });
      if (!result.verified) throw new Error('assertion not verified');
      info = result.authenticationInfo;
    } catch (err) {
      throw refused(err);
    }
    // A concurrent use already stored a higher count: this assertion is a replay or a clone's.
    if (!(await recordPasskeyUse(db, Number(row.id), info.newCounter, nowSeconds())))
      throw refused(new Error('signature counter did not increase'));
  }

  return {
    /** The user's passkey, or undefined. */
    status: (userId: number) => findPasskeyOfUser(db, userId),

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

    /** Whether this browser finished a passkey verification for this user in the last minute; single use. */
    async consumeVerified(userId: number, flow: string): Promise<boolean> {
      const row = await takeChallenge(db, `${flow}:verified`, nowSeconds());
      return row !== undefined && Number(row.user_id) === userId;
    },

    async remove(userId: number): Promise<void> {
      await deletePasskeysOfUser(db, userId);
    },

    /** An admin removes someone's passkey (they sign in otherwise and may register a new one). */
    async adminReset(actor: Actor, targetId: number): Promise<void> {
      const target = await findLiveUserById(db, targetId);
      if (!target) throw badRequest('user.not_found');
      assertOutranks(actor, target.role);
      if ((await deletePasskeysOfUser(db, targetId)) === 0) throw badRequest('passkey.not_registered');
    },
  };
}
