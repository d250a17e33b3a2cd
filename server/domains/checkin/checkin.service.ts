import { randomInt } from 'node:crypto';
import { LogType } from '../../../shared/constants.ts';
import { currencyOfOptions } from '../../../shared/currency.ts';
import { quotaText } from '../../../shared/quota-format.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, conflict } from '../../errors.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import type { OptionsService } from '../options/options.service.ts';
import {
  addUserQuota,
  checkInTotals,
  findUsername,
  hasCheckedIn,
  insertCheckIn,
  insertCheckInLog,
  listCheckIns,
} from './checkin.repo.ts';

export type CheckInService = ReturnType<typeof createCheckInService>;

/** The calendar day in the server's time zone; a new day starts at local midnight. */
export function calendarDay(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** `YYYY-MM` as sent by new-api's calendar, else the current month. */
const monthOf = (month: string | undefined) =>
  month && /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : calendarDay().slice(0, 7);

export function createCheckInService(infra: Infra, options: OptionsService) {
  return {
    /**
     * new-api's check-in card (GET /api/user/checkin?month=YYYY-MM): the reward range, whether today is
     * done, all-time totals and the month's days. Refused while check-in is off, as new-api does.
     */
    async overview(userId: number, month?: string) {
      if (!options.get('CheckInEnabled')) throw badRequest('checkin.disabled');
      const m = monthOf(month);
      const [records, totals, today] = await Promise.all([
        listCheckIns(infra.db, userId, `${m}-01`, `${m}-31`),
        checkInTotals(infra.db, userId),
        hasCheckedIn(infra.db, userId, calendarDay()),
      ]);
      return {
        enabled: true,
        min_quota: options.get('CheckInQuota'),
        max_quota: options.get('CheckInMaxQuota'),
        stats: {
          total_quota: totals.quota,
          total_checkins: totals.count,
          checkin_count: records.length,
          checked_in_today: today,
          records: records.map((r) => ({ checkin_date: r.day, quota_awarded: Number(r.quota) })),
        },
      };
    },

    async status(userId: number): Promise<{ can_check_in: boolean }> {
      if (!options.get('CheckInEnabled')) return { can_check_in: false };
      return { can_check_in: !(await hasCheckedIn(infra.db, userId, calendarDay())) };
    },

    /** Credits a random reward once per calendar day; a second (or concurrent) call loses on the unique index. */
    async checkIn(userId: number): Promise<{ quota: number; day: string }> {
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
            quotaText(q, options.get('QuotaPerUnit'), currencyOfOptions(options.get.bind(options)));
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
      return { quota, day };
    },
  };
}
