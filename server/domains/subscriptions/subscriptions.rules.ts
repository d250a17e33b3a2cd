import type { DurationUnit, ResetPeriod } from '../../../shared/schemas/subscriptions.ts';

/*
 * Pure time rules of subscription plans, in unix seconds. Calendar units (year, month) follow the
 * calendar as new-api's AddDate does (UTC here, the server's clock); the others are fixed lengths.
 */

const DAY = 86_400;

function addCalendar(start: number, years: number, months: number): number {
  const d = new Date(start * 1000);
  d.setUTCFullYear(d.getUTCFullYear() + years, d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

/** When a plan bought at `start` ends; null when the plan's duration is not valid. */
export function planEndTime(
  start: number,
  plan: { duration_unit: string; duration_value: number; custom_seconds: number },
): number | null {
  const n = plan.duration_value;
  switch (plan.duration_unit as DurationUnit) {
    case 'year':
      return n > 0 ? addCalendar(start, n, 0) : null;
    case 'month':
      return n > 0 ? addCalendar(start, 0, n) : null;
    case 'day':
      return n > 0 ? start + n * DAY : null;
    case 'hour':
      return n > 0 ? start + n * 3600 : null;
    case 'custom':
      return plan.custom_seconds > 0 ? start + plan.custom_seconds : null;
    default:
      return null;
  }
}

export interface ResetRule {
  quota_reset_period: string;
  quota_reset_custom_seconds: number;
}

/** One reset period after `base`; 0 when the quota never resets. */
function oneAfter(base: number, rule: ResetRule): number {
  switch (rule.quota_reset_period as ResetPeriod) {
    case 'daily':
      return base + DAY;
    case 'weekly':
      return base + 7 * DAY;
    case 'monthly':
      return addCalendar(base, 0, 1);
    case 'custom':
      return rule.quota_reset_custom_seconds > 0 ? base + rule.quota_reset_custom_seconds : 0;
    default:
      return 0;
  }
}

/**
 * The first reset after `now`, counted in whole periods from `from` (a purchase or the reset that was
 * due), so a reset found late keeps the plan's rhythm; 0 when there is none before the plan ends.
 */
export function nextResetAfter(from: number, now: number, rule: ResetRule, endTime: number): number {
  let next = oneAfter(from, rule);
  // Bounded: a period is at least a second and a plan is finite, but a long-missed custom period could loop long.
  for (let i = 0; next > 0 && next <= now && i < 100_000; i++) next = oneAfter(next, rule);
  if (next <= now) next = 0;
  return next > 0 && (endTime <= 0 || next < endTime) ? next : 0;
}
