import { sql } from 'kysely';
import { nowSeconds } from '../../../db/time.ts';
import type { Db } from '../../../db/types.ts';
import { nextResetAfter, type ResetRule } from '../../subscriptions/subscriptions.rules.ts';
import type { ImportSource } from '../sources/source.repo.ts';
import { mapPlan } from './subscription-plans.repo.ts';
import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { ImportContext, Row, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { int, str, unixSeconds } from './values.rules.ts';

/*
 * The plans users paid for, with what is left of them: new-api keeps the current period's pool on the row
 * (remaining = amount_total - amount_used, 0 total = unlimited), the period (start/end) and, since 2026, the reset
 * rule copied from the plan at purchase. A row without its own rule takes its plan's; a next reset the source did
 * not store is counted from the last one, so a pool is not emptied or refilled by the move.
 */

/** The source's plans, read once per import (a dry run has not written them here). */
const sourcePlans = new WeakMap<ImportSource, Promise<Map<number, ResetRule & { upgrade_group: string }>>>();

function plansOf(ctx: ImportContext) {
  let plans = sourcePlans.get(ctx.source);
  if (!plans) {
    plans = (async () => {
      const out = new Map<number, ResetRule & { upgrade_group: string }>();
      if (!ctx.tables.has('subscription_plans')) return out;
      for await (const batch of ctx.source.batches('subscription_plans', { size: 500, orderBy: 'id' }))
        for (const r of batch) out.set(int(r.id), mapPlan(r));
      return out;
    })();
    sourcePlans.set(ctx.source, plans);
  }
  return plans;
}

const remainingOf = (r: Row) => int(r.amount_total) - int(r.amount_used);

export const userSubscriptionsImporter: TableImporter = {
  name: 'user_subscriptions',
  sourceTable: 'user_subscriptions',
  optional: true,
  async importBatch(trx, rows, ctx) {
    const plans = await plansOf(ctx);
    const now = nowSeconds();
    const mapped = [];
    for (const r of rows) {
      const plan = plans.get(int(r.plan_id));
      if (!ctx.columns.has('amount_total'))
        ctx.note(
          'user_subscriptions: this schema keeps the pool in per-model items (user_subscription_items), which are not read: the subscriptions are imported with an empty pool',
        );
      const rule: ResetRule = ctx.columns.has('quota_reset_period')
        ? {
            quota_reset_period: str(r.quota_reset_period) || 'never',
            quota_reset_custom_seconds: int(r.quota_reset_custom_seconds),
          }
        : {
            quota_reset_period: plan?.quota_reset_period ?? 'never',
            quota_reset_custom_seconds: plan?.quota_reset_custom_seconds ?? 0,
          };
      if (!plan)
        ctx.note(
          `user_subscriptions: some rows name a plan the source no longer has (e.g. plan #${int(r.plan_id)}); they keep their pool and period`,
        );
      const start = unixSeconds(r.start_time) ?? 0;
      const end = unixSeconds(r.end_time) ?? 0;
      const lastReset = unixSeconds(r.last_reset_time) ?? 0;
      const storedNext = unixSeconds(r.next_reset_time);
      const next =
        storedNext !== null && ctx.columns.has('next_reset_time')
          ? storedNext
          : nextResetAfter(lastReset || start, now, rule, end);
      mapped.push({
        id: int(r.id),
        user_id: int(r.user_id),
        plan_id: int(r.plan_id),
        amount_total: int(r.amount_total),
        amount_used: int(r.amount_used),
        start_time: start,
        end_time: end,
        status: str(r.status) || 'active',
        source: str(r.source) || 'order',
        ...rule,
        last_reset_time: lastReset,
        next_reset_time: next,
        upgrade_group: ctx.columns.has('upgrade_group') ? str(r.upgrade_group) : (plan?.upgrade_group ?? ''),
        prev_user_group: str(r.prev_user_group),
        created_at: unixSeconds(r.created_at) ?? start,
        updated_at: unixSeconds(r.updated_at) ?? start,
      });
    }
    return upsertById(trx, 'user_subscriptions', mapped);
  },
  balance: {
    kind: 'subscriptions',
    source: remainingOf,
    target: (trx, rows) =>
      remainingHere(
        trx,
        rows.map((r) => int(r.id)),
      ),
  },
  finish: moveSequenceOnPostgres('user_subscriptions'),
};

/** What the target's subscriptions with these ids have left (amount_total - amount_used), summed. */
async function remainingHere(trx: Db, ids: number[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const r = await trx
      .selectFrom('user_subscriptions')
      .select(sql<number>`coalesce(sum(amount_total - amount_used), 0)`.as('n'))
      .where('id', 'in', ids.slice(i, i + 500))
      .executeTakeFirst();
    total += Number(r?.n ?? 0);
  }
  return total;
}
