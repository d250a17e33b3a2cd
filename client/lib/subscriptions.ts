import { plural, t } from '@lingui/core/macro';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router.ts';

/*
 * Subscription plans as the admin's plans page, the user drawer and the wallet word them (issue 32):
 * a plan's length, its reset rhythm and a subscription's state.
 */

type Outputs = inferRouterOutputs<AppRouter>;
export type PlanRow = Outputs['subscriptionAdmin']['plans'][number];
export type SubscriptionSummary = Outputs['subscriptions']['self']['all_subscriptions'][number];

/** "1 month", "30 days", "3600 seconds". */
export function durationText(p: { duration_unit: string; duration_value: number; custom_seconds: number }): string {
  const n = p.duration_value;
  switch (p.duration_unit) {
    case 'year':
      return plural(n, { one: '# year', other: '# years' });
    case 'month':
      return plural(n, { one: '# month', other: '# months' });
    case 'day':
      return plural(n, { one: '# day', other: '# days' });
    case 'hour':
      return plural(n, { one: '# hour', other: '# hours' });
    default:
      return plural(p.custom_seconds, { one: '# second', other: '# seconds' });
  }
}

/** How often the quota renews. */
export function resetText(p: { quota_reset_period: string; quota_reset_custom_seconds: number }): string {
  switch (p.quota_reset_period) {
    case 'daily':
      return t`Every day`;
    case 'weekly':
      return t`Every week`;
    case 'monthly':
      return t`Every month`;
    case 'custom': {
      const n = p.quota_reset_custom_seconds;
      return plural(n, { one: 'Every # second', other: 'Every # seconds' });
    }
    default:
      return t`Never renews`;
  }
}

/** A subscription's state as its owner and the admin see it. */
export function statusText(status: string): string {
  if (status === 'active') return t`Active`;
  if (status === 'cancelled') return t`Cancelled`;
  return t`Expired`;
}

export const statusColor = (status: string) =>
  status === 'active' ? 'green' : status === 'cancelled' ? 'gray' : 'orange';
