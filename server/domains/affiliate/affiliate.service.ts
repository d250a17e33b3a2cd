import { randomAlphanumeric } from '../../random.ts';
import { currencyOfOptions } from '../../../shared/currency.ts';
import { quotaText } from '../../../shared/quota-format.ts';
import type { Infra } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { affCodeTaken, findAffInfo, moveAffQuota, setAffCodeIfMissing } from './affiliate.repo.ts';

export type AffiliateService = ReturnType<typeof createAffiliateService>;

export function createAffiliateService(infra: Infra, options: OptionsService) {
  /** new-api hands out 4-character codes; we grow the length if a few tries collide. */
  async function ensureCode(userId: number, current: string | null): Promise<string> {
    if (current) return current;
    for (let attempt = 0; attempt < 8; attempt++) {
      const code = randomAlphanumeric(attempt < 4 ? 4 : 6);
      if (await affCodeTaken(infra.db, code)) continue;
      await setAffCodeIfMissing(infra.db, userId, code);
      break;
    }
    const row = await findAffInfo(infra.db, userId);
    if (!row?.aff_code) throw new Error('could not assign an invite code');
    return row.aff_code;
  }

  return {
    /** Invite code, link and counters for the personal settings invite card. */
    async info(userId: number) {
      const row = await findAffInfo(infra.db, userId);
      if (!row) throw notFound('user.not_found');
      const code = await ensureCode(userId, row.aff_code);
      const base = options.get('ServerAddress');
      return {
        aff_code: code,
        // Empty when no server address is set: the console then uses its own origin.
        aff_link: base ? `${base}/register?aff=${encodeURIComponent(code)}` : '',
        aff_count: Number(row.aff_count),
        aff_quota: Number(row.aff_quota),
        aff_history_quota: Number(row.aff_history_quota),
        min_transfer: options.get('QuotaPerUnit'),
      };
    },

    /** Moves invite quota into the usable balance; at least one unit (QuotaPerUnit), at most aff_quota. */
    async transfer(userId: number, quota: number): Promise<void> {
      const unit = options.get('QuotaPerUnit');
      if (quota < unit) {
        throw badRequest('aff.transfer_min', {
          amount: quotaText(unit, unit, currencyOfOptions(options.get.bind(options))),
        });
      }
      if (!(await moveAffQuota(infra.db, userId, quota))) throw badRequest('aff.quota_insufficient');
      infra.bus.publish('users', String(userId));
    },
  };
}
