import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { Row, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { bool01, int, num, str, unixSeconds } from './values.rules.ts';

/*
 * Paid plans (new-api 2026's subscription_plans): price (a DECIMAL, so a string from mysql2), duration, the quota
 * per period and its reset rule, and the payment products (Stripe price, Creem product) a checkout names.
 */
export const mapPlan = (r: Row) => ({
  id: int(r.id),
  title: str(r.title),
  subtitle: str(r.subtitle),
  price_amount: num(r.price_amount),
  currency: str(r.currency) || 'USD',
  duration_unit: str(r.duration_unit) || 'month',
  duration_value: int(r.duration_value, 1),
  custom_seconds: int(r.custom_seconds),
  enabled: r.enabled === null || r.enabled === undefined ? 1 : bool01(r.enabled),
  sort_order: int(r.sort_order),
  max_purchase_per_user: int(r.max_purchase_per_user),
  upgrade_group: str(r.upgrade_group),
  total_amount: int(r.total_amount),
  quota_reset_period: str(r.quota_reset_period) || 'never',
  quota_reset_custom_seconds: int(r.quota_reset_custom_seconds),
  stripe_price_id: str(r.stripe_price_id),
  creem_product_id: str(r.creem_product_id),
  created_at: unixSeconds(r.created_at) ?? 0,
  updated_at: unixSeconds(r.updated_at) ?? 0,
});

export const subscriptionPlansImporter: TableImporter = {
  name: 'subscription_plans',
  sourceTable: 'subscription_plans',
  optional: true,
  importBatch(trx, rows, ctx) {
    if (ctx.tables.has('subscription_plan_items'))
      ctx.note(
        'subscription_plan_items: per-model plan items (an early 2026 schema) are not imported; each plan keeps its total_amount',
      );
    return upsertById(trx, 'subscription_plans', rows.map(mapPlan));
  },
  finish: moveSequenceOnPostgres('subscription_plans'),
};
