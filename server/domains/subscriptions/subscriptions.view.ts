import type { Selectable } from 'kysely';
import type { Database } from '../../db/types.ts';

type PlanRow = Selectable<Database['subscription_plans']>;
type UserSubscriptionRow = Selectable<Database['user_subscriptions']>;

/** A plan as new-api answers it (model/subscription.go SubscriptionPlan): booleans as booleans. */
export function planView(p: PlanRow) {
  return {
    id: Number(p.id),
    title: p.title,
    subtitle: p.subtitle,
    price_amount: Number(p.price_amount),
    currency: p.currency,
    duration_unit: p.duration_unit,
    duration_value: Number(p.duration_value),
    custom_seconds: Number(p.custom_seconds),
    enabled: p.enabled === 1,
    sort_order: Number(p.sort_order),
    max_purchase_per_user: Number(p.max_purchase_per_user),
    upgrade_group: p.upgrade_group,
    total_amount: Number(p.total_amount),
    quota_reset_period: p.quota_reset_period,
    quota_reset_custom_seconds: Number(p.quota_reset_custom_seconds),
    stripe_price_id: p.stripe_price_id,
    creem_product_id: p.creem_product_id,
    created_at: Number(p.created_at),
    updated_at: Number(p.updated_at),
  };
}
export type PlanView = ReturnType<typeof planView>;

/**
 * A user's subscription as new-api answers it. `status` says what is true now: an active row whose
 * end has passed (the timer has not marked it yet) reads as expired.
 */
export function userSubscriptionView(s: UserSubscriptionRow, now: number) {
  const ended = s.status === 'active' && Number(s.end_time) <= now;
  return {
    id: Number(s.id),
    user_id: Number(s.user_id),
    plan_id: Number(s.plan_id),
    amount_total: Number(s.amount_total),
    amount_used: Number(s.amount_used),
    start_time: Number(s.start_time),
    end_time: Number(s.end_time),
    status: ended ? 'expired' : s.status,
    source: s.source,
    last_reset_time: Number(s.last_reset_time),
    next_reset_time: Number(s.next_reset_time),
    upgrade_group: s.upgrade_group,
    prev_user_group: s.prev_user_group,
    created_at: Number(s.created_at),
    updated_at: Number(s.updated_at),
  };
}
export type UserSubscriptionView = ReturnType<typeof userSubscriptionView>;

/** new-api's SubscriptionSummary: `{subscription, plan_title}`. */
export const summaryView = (s: UserSubscriptionRow, titles: Map<number, string>, now: number) => ({
  subscription: userSubscriptionView(s, now),
  plan_title: titles.get(Number(s.plan_id)) ?? '',
});
