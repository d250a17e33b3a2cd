import { randomInt } from 'node:crypto';
import { LogType } from '../../../shared/constants.ts';
import { quotaText } from '../../../shared/quota-format.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, conflict } from '../../errors.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import type { OptionsService } from '../options/options.service.ts';
import { addUserQuota, findUsername, hasCheckedIn, insertCheckIn, insertCheckInLog } from './checkin.repo.ts';

export type CheckInService = ReturnType<typeof createCheckInService>;

/** The calendar day in the server's time zone; a new day starts at local midnight. */
export function calendarDay(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

export function createCheckInService(infra: Infra, options: OptionsService) {
  return {
    async status(userId: number): Promise<{ can_check_in: boolean }> {
      if (!options.get('CheckInEnabled')) return { can_check_in: false };
      return { can_check_in: !(await hasCheckedIn(infra.db, userId, calendarDay())) };
    },

    /** Credits a random reward once per calendar day; a second (or concurrent) call loses on the unique index. */
    async checkIn(userId: number): Promise<{ quota: number }> {
      if (!options.get('CheckInEnabled')) throw badRequest('checkin.disabled');
      const a = options.get('CheckInQuota');
      const b = options.get('CheckInMaxQuota');
      // An admin may save max below min; the range is still the two numbers.
      const [min, max] = a <= b ? [a, b] : [b, a];
      const quota = min === max ? min : randomInt(min, max + 1);
      const now = nowSeconds();
      const day = calendarDay();
      try {
        await infra.db.transaction().execute(async (trx) => {
          await insertCheckIn(trx, userId, day, quota, now);
          if (quota > 0) await addUserQuota(trx, userId, quota);
          const amountText = (q: number) =>
            quotaText(q, options.get('QuotaPerUnit'), options.get('DisplayInCurrencyEnabled'));
          await insertCheckInLog(trx, {
            user_id: userId,
            username: await findUsername(trx, userId),
            created_at: now,
            type: LogType.CheckIn,
            ...messageLogFields({ code: 'log.checkin', params: { amount: { quota } } }, { amountText }),
            quota,
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('checkin.already');
        throw err;
      }
      infra.bus.publish('users', String(userId));
      return { quota };
    },
  };
}
