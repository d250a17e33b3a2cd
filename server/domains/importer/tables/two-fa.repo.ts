import { nowSeconds } from '../../../db/time.ts';
import { sealSecret, twoFaKeys } from '../../twofa/secret-box.rules.ts';
import type { Skipped, TableImporter } from './types.ts';
import { bool01, deletedAt, int, str, unixSeconds } from './values.rules.ts';

/*
 * Two-factor setups (new-api's two_fas): its secret is plain base32 (SHA-1, 6 digits, 30 s), the same TOTP as
 * ours, so each user's authenticator app keeps working. We never store it readable: it is sealed here with the
 * server's key (twofa/secret-box.rules.ts), exactly as a setup made in Switchyard. A disabled or deleted setup
 * is left behind (the user signs in with the password alone, as they did there).
 */

const BASE32 = /^[A-Z2-7]+=*$/;

export const twoFaImporter: TableImporter = {
  name: 'two_fa',
  sourceTable: 'two_fas',
  optional: true,
  async importBatch(trx, rows, ctx) {
    const skipped: Skipped[] = [];
    // The running gateway derives its two-factor keys from SESSION_SECRET: the import is given the same.
    const secret = ctx.sessionSecret;
    const key = secret ? twoFaKeys(secret).seal : undefined;
    let imported = 0;
    for (const r of rows) {
      const userId = int(r.user_id);
      const plain = str(r.secret).replace(/\s/g, '').toUpperCase();
      if (deletedAt(r.deleted_at) !== null) {
        skipped.push({ id: r.id, reason: 'deleted in new-api' });
        continue;
      }
      if (!bool01(r.is_enabled)) {
        skipped.push({
          id: r.id,
          reason: 'two-factor set up but never turned on: the user signs in with the password',
        });
        continue;
      }
      if (!BASE32.test(plain)) {
        skipped.push({ id: r.id, reason: 'the TOTP secret is not base32 text' });
        continue;
      }
      if (!key) {
        skipped.push({ id: r.id, reason: 'no SESSION_SECRET given: the TOTP secret cannot be sealed' });
        continue;
      }
      const now = nowSeconds();
      const lockedUntil = unixSeconds(r.locked_until) ?? 0;
      const row = {
        secret: sealSecret(key, plain),
        is_enabled: 1,
        failed_attempts: int(r.failed_attempts),
        locked_until: lockedUntil > now ? lockedUntil : 0,
        last_used_at: unixSeconds(r.last_used_at),
        created_at: unixSeconds(r.created_at) ?? now,
        updated_at: unixSeconds(r.updated_at) ?? now,
      };
      // Keyed by the user (one setup each); a re-run seals the same secret again (a new IV), nothing else changes.
      await trx
        .insertInto('two_fa')
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
        .execute();
      imported++;
    }
    return { imported, skipped };
  },
};
