import { generateSecret, verify } from 'otplib';
import QRCode from 'qrcode';
import { nowSeconds } from '../../db/time.ts';
import { badRequest } from '../../errors.ts';
import { deleteUserSessions } from '../auth/session.repo.ts';
import { findLiveUserById } from '../users/users.repo.ts';
import { type Actor, assertOutranks } from '../users/users.rules.ts';
import {
  hashBackupCode,
  isImportedBackupHash,
  matchesImportedBackupCode,
  openSecret,
  sealSecret,
} from './secret-box.rules.ts';
import type { TwoFaDeps } from './twofa.deps.ts';
import {
  acceptTotpStep,
  countFailure,
  countUnusedBackupCodes,
  deleteTwoFa,
  enableTwoFa,
  findTwoFa,
  replaceBackupCodes,
  replaceTwoFaSetup,
  spendBackupCode,
  twoFaCounts,
  unusedImportedBackupCodes,
} from './twofa.repo.ts';
import {
  backupCodeOf,
  LOCKOUT_S,
  lockMinutesLeft,
  MAX_FAILED_ATTEMPTS,
  newBackupCodes,
  otpauthUrl,
  TOTP_TOLERANCE_S,
  totpCodeOf,
} from './twofa.rules.ts';

export type TwoFaService = ReturnType<typeof createTwoFaService>;

/** What setup answers, once: the secret and codes are never shown again. */
export interface TwoFaSetup {
  secret: string;
  /** The otpauth:// URL (new-api's `qr_code_data`). */
  qr_code_data: string;
  /** The same URL as an SVG QR code (data: URL), for consoles without a QR component. */
  qr_code_image: string;
  backup_codes: string[];
}

/**
 * TOTP two-factor sign-in with backup codes (new-api's controller/twofa.go rules): setup shows a new
 * secret and codes once, a right code turns it on; then every code works once (TOTP per 30-second step,
 * backup codes single use), and five wrong codes in a row lock the second step for five minutes.
 */
export function createTwoFaService(d: TwoFaDeps) {
  const { db, keys } = d;
  const hashCodes = (codes: string[]) => codes.map((c) => hashBackupCode(keys.mac, c));

  async function enabledRow(userId: number) {
    const row = await findTwoFa(db, userId);
    if (!row || !row.is_enabled) throw badRequest('twofa.not_enabled');
    return row;
  }

  type Row = NonNullable<Awaited<ReturnType<typeof findTwoFa>>>;

  /**
   * A TOTP code of a step not used before: 'taken'. A code of the window already accepted (typed twice,
   * or a second sign-in within the same 30 seconds): 'reused', said as such, since it is not a typo.
   * Otherwise 'wrong' (the caller counts the failure).
   */
  async function takeTotp(userId: number, row: Row, code: string, now: number): Promise<'taken' | 'reused' | 'wrong'> {
    const secret = openSecret(keys.seal, row.secret);
    if (secret === undefined) return 'wrong';
    const lastStep = Number(row.last_step);
    // The library throws where the last accepted step lies past the window (a clock set back): not valid.
    const result = await verify({ secret, token: code, epochTolerance: TOTP_TOLERANCE_S }).catch(() => ({
      valid: false as const,
    }));
    if (!result.valid || !('timeStep' in result)) return 'wrong';
    if (result.timeStep <= lastStep) return 'reused';
    if (await acceptTotpStep(db, userId, result.timeStep, now)) return 'taken';
    // Another call accepted this step (or a later one) since the row was read.
    return 'reused';
  }

  /** Spends a backup code: ours by its keyed hash, else one imported from new-api by bcrypt (issue 42). */
  async function spendBackup(userId: number, backup: string, now: number): Promise<boolean> {
    if (await spendBackupCode(db, userId, { hash: hashBackupCode(keys.mac, backup) }, now)) return true;
    for (const c of await unusedImportedBackupCodes(db, userId))
      if (isImportedBackupHash(c.code_hash) && (await matchesImportedBackupCode(backup, c.code_hash)))
        return spendBackupCode(db, userId, { id: Number(c.id) }, now);
    return false;
  }

  /**
   * Checks a code typed at a second step: a TOTP code, or with `allowBackup` a backup code (spent).
   * Refuses while locked; a wrong code counts toward the lock.
   */
  async function checkCode(userId: number, row: Row, input: string, allowBackup: boolean): Promise<'totp' | 'backup'> {
    const now = nowSeconds();
    if (Number(row.locked_until) > now)
      throw badRequest('twofa.locked', { minutes: lockMinutesLeft(Number(row.locked_until), now) });
    const totp = totpCodeOf(input);
    const taken = totp === undefined ? 'wrong' : await takeTotp(userId, row, totp, now);
    if (taken === 'taken') return 'totp';
    const backup = allowBackup ? backupCodeOf(input) : undefined;
    if (backup !== undefined && (await spendBackup(userId, backup, now))) return 'backup';
    // A right code sent twice is not a guess: it does not count toward the lock.
    if (taken === 'reused') throw badRequest('twofa.code_reused');
    await countFailure(db, userId, MAX_FAILED_ATTEMPTS, now + LOCKOUT_S, now);
    if (!allowBackup && totp === undefined) throw badRequest('twofa.code_format');
    throw badRequest('twofa.wrong_code');
  }

  return {
    async isEnabled(userId: number): Promise<boolean> {
      return (await findTwoFa(db, userId))?.is_enabled === 1;
    },

    async status(userId: number) {
      const row = await findTwoFa(db, userId);
      const enabled = row?.is_enabled === 1;
      return {
        enabled,
        locked: row !== undefined && Number(row.locked_until) > nowSeconds(),
        ...(enabled ? { backup_codes_remaining: await countUnusedBackupCodes(db, userId) } : {}),
      };
    },

    /** Starts (or restarts) setup: a new secret and backup codes, not in force until `enable`. */
    async setup(userId: number): Promise<TwoFaSetup> {
      const user = await findLiveUserById(db, userId);
      if (!user) throw badRequest('user.not_found');
      if ((await findTwoFa(db, userId))?.is_enabled) throw badRequest('twofa.already_enabled');
      const secret = generateSecret();
      const codes = newBackupCodes();
      await replaceTwoFaSetup(db, userId, sealSecret(keys.seal, secret), hashCodes(codes), nowSeconds());
      const url = otpauthUrl(d.options.get('SystemName') || 'Switchyard', user.username, secret);
      const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return {
        secret,
        qr_code_data: url,
        qr_code_image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        backup_codes: codes,
      };
    },

    /** A code from the app confirms setup and turns two-factor on. */
    async enable(userId: number, code: string): Promise<void> {
      const row = await findTwoFa(db, userId);
      if (!row) throw badRequest('twofa.setup_first');
      if (row.is_enabled) throw badRequest('twofa.enabled_already');
      await checkCode(userId, row, code, false);
      if (!(await enableTwoFa(db, userId, nowSeconds()))) throw badRequest('twofa.enabled_already');
    },

    /** Turns it off with a TOTP or backup code; the secret and codes are deleted. */
    async disable(userId: number, code: string): Promise<void> {
      await checkCode(userId, await enabledRow(userId), code, true);
      await deleteTwoFa(db, userId);
    },

    /** New backup codes (the old ones stop working), against a TOTP code as new-api asks. */
    async regenerateBackupCodes(userId: number, code: string): Promise<{ backup_codes: string[] }> {
      await checkCode(userId, await enabledRow(userId), code, false);
      const codes = newBackupCodes();
      await replaceBackupCodes(db, userId, hashCodes(codes), nowSeconds());
      return { backup_codes: codes };
    },

    /** The second step of a sign-in or a fresh check (POST /api/verify): a TOTP or backup code. */
    async verify(userId: number, code: string): Promise<'totp' | 'backup'> {
      if (code.trim() === '') throw badRequest('verify.code_required');
      return checkCode(userId, await enabledRow(userId), code, true);
    },

    /** new-api's admin figures: live users, those with two-factor on, and the share as text ("12.5%"). */
    async stats() {
      const { total, enabled } = await twoFaCounts(db);
      const rate = total > 0 ? (enabled / total) * 100 : 0;
      return { total_users: total, enabled_users: enabled, enabled_rate: `${rate.toFixed(1)}%` };
    },

    /** An admin turns someone's two-factor off (a lost phone and codes); never for the same or a higher role. */
    async adminReset(actor: Actor, targetId: number): Promise<void> {
      const target = await findLiveUserById(db, targetId);
      if (!target) throw badRequest('user.not_found');
      assertOutranks(actor, target.role, 'twofa.outranked');
      const row = await findTwoFa(db, targetId);
      if (!row?.is_enabled) throw badRequest('twofa.not_enabled');
      await deleteTwoFa(db, targetId);
      // As new-api does: whoever holds a session of that account signs in again.
      await deleteUserSessions(db, targetId, nowSeconds());
    },
  };
}
