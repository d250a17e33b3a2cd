import { type AuthenticatorTransport, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { AuthenticationCredential } from '../../../../shared/schemas/passkeys.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { Db } from '../../../db/types.ts';
import { badRequest } from '../../../errors.ts';
import type { OptionsService } from '../../options/options.service.ts';
import { findPasskeyOfUser, putChallenge, recordPasskeyUse, takeChallenge } from '../passkeys.repo.ts';
import { CHALLENGE_TTL_S, type CeremonyPurpose, relyingParty } from '../passkeys.rules.ts';

/** What the passkey verbs share: the database and options, and the steps every ceremony takes. */
export interface PasskeysCtx {
  db: Db;
  options: OptionsService;
}

/**
 * Where a ceremony happens: the browser's flow id (a signed cookie, passkeys-flow.service.ts) that binds a
 * challenge to the browser that asked for it, and the origin the browser used.
 */
export interface CeremonySite {
  flow: string;
  origin: string;
}

export type PasskeyRow = NonNullable<Awaited<ReturnType<typeof findPasskeyOfUser>>>;

export const transportsOf = (row: PasskeyRow) => JSON.parse(row.transports) as AuthenticatorTransport[];

/** The library's refusal (wrong challenge, origin, signature, counter) in our words; its own stays as detail. */
export const refused = (err: unknown) =>
  badRequest('passkey.verify_failed', {}, { technical: err instanceof Error ? err.message : String(err) });

/** A challenge row's id: one per browser and purpose ('verified': the mark a verification leaves). */
export const challengeKey = (s: Pick<CeremonySite, 'flow'>, purpose: CeremonyPurpose | 'verified') =>
  `${s.flow}:${purpose}`;

export function ceremonySteps({ db, options }: PasskeysCtx) {
  /** The relying party for this request; refused while the site has passkeys off. */
  function site(origin: string) {
    if (!options.get('passkey.enabled')) throw badRequest('passkey.disabled');
    return relyingParty(options.get, origin);
  }

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

  /** Whether this browser finished a passkey verification for this user in the last minute; single use. */
  async function consumeVerified(userId: number, flow: string): Promise<boolean> {
    const row = await takeChallenge(db, challengeKey({ flow }, 'verified'), nowSeconds());
    return row !== undefined && Number(row.user_id) === userId;
  }

  return { site, keepChallenge, takeKept, passkeyOf, checkAssertion, consumeVerified };
}
