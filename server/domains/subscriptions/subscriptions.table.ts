import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `subscription_plans`, `subscription_orders`, `user_subscriptions` (joined into `Database` by server/db/types.ts). */

/** A plan an admin sells (migration 2026-11-27T0400): a price, a duration and quota per period. */
export interface SubscriptionPlansTable {
  id: Id;
  title: string;
  subtitle: Defaulted<string>;
  price_amount: Defaulted<number>;
  currency: Defaulted<string>;
  duration_unit: Defaulted<string>;
  duration_value: Defaulted<number>;
  custom_seconds: Defaulted<number>;
  enabled: Defaulted<number>;
  sort_order: Defaulted<number>;
  max_purchase_per_user: Defaulted<number>;
  upgrade_group: Defaulted<string>;
  /** Quota units per period; 0 = unlimited. */
  total_amount: Defaulted<number>;
  quota_reset_period: Defaulted<string>;
  quota_reset_custom_seconds: Defaulted<number>;
  stripe_price_id: Defaulted<string>;
  creem_product_id: Defaulted<string>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
}

/** A plan's payment under way; the gateway's signed notice completes it once. */
export interface SubscriptionOrdersTable {
  id: Id;
  user_id: number;
  plan_id: number;
  money: Defaulted<number>;
  trade_no: string;
  payment_method: Defaulted<string>;
  status: Defaulted<string>;
  create_time: Defaulted<number>;
  complete_time: Defaulted<number>;
  provider_payload: Defaulted<string>;
}

/** A user's plan: the current period's pool (`amount_used` of `amount_total`, 0 = unlimited). */
export interface UserSubscriptionsTable {
  id: Id;
  user_id: number;
  plan_id: number;
  amount_total: Defaulted<number>;
  amount_used: Defaulted<number>;
  start_time: Defaulted<number>;
  end_time: Defaulted<number>;
  /** active, expired or cancelled. */
  status: Defaulted<string>;
  /** order, balance or admin. */
  source: Defaulted<string>;
  quota_reset_period: Defaulted<string>;
  quota_reset_custom_seconds: Defaulted<number>;
  last_reset_time: Defaulted<number>;
  next_reset_time: Defaulted<number>;
  upgrade_group: Defaulted<string>;
  prev_user_group: Defaulted<string>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
}
