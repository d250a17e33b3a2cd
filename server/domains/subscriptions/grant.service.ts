import type { Selectable } from 'kysely';
import { LogType } from '../../../shared/constants.ts';
import type { ServerMessageCode } from '../../../shared/server-messages.ts';
import type { Database, Db } from '../../db/types.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { insertSubscriptionLog } from './period.service.ts';
import { nextResetAfter, planEndTime } from './subscriptions.rules.ts';
import { countPurchases, findSubscriber, insertUserSubscription, moveUserGroup } from './subscriptions.repo.ts';

type PlanRow = Selectable<Database['subscription_plans']>;

/** How a subscription came to be, and the ledger line that says so. */
export const GRANT_SOURCES = {
  order: 'log.subscription_purchased',
  balance: 'log.subscription_purchased',
  admin: 'log.subscription_granted',
} as const satisfies Record<string, ServerMessageCode>;
export type GrantSource = keyof typeof GRANT_SOURCES;

export interface Granted {
  id: number;
  userId: number;
  /** The group the user was moved to (the plan's upgrade group), or '' when it did not change. */
  upgradedTo: string;
}

/**
 * Gives a user a plan, inside the caller's transaction (the payment's, or an admin's): the terms are
 * copied from the plan (quota per period, reset rule, end), the user moves to the plan's upgrade group
 * remembering the one they had, and the ledger records the first period's quota. new-api's purchase
 * limit counts every subscription the user ever had of this plan.
 */
export async function grantPlan(
  trx: Db,
  options: OptionsService,
  userId: number,
  plan: PlanRow,
  source: GrantSource,
  now: number,
  payment: { money: number; method: string } = { money: 0, method: '' },
): Promise<Granted> {
  const user = await findSubscriber(trx, userId);
  if (!user) throw notFound('user.not_found');
  const limit = Number(plan.max_purchase_per_user);
  if (limit > 0 && (await countPurchases(trx, userId, Number(plan.id))) >= limit)
    throw badRequest('subscription.purchase_limit');
  const end = planEndTime(now, {
    duration_unit: plan.duration_unit,
    duration_value: Number(plan.duration_value),
    custom_seconds: Number(plan.custom_seconds),
  });
  if (end === null) throw badRequest('subscription.custom_duration');
  const rule = {
    quota_reset_period: plan.quota_reset_period,
    quota_reset_custom_seconds: Number(plan.quota_reset_custom_seconds),
  };
  const next = nextResetAfter(now, now, rule, end);
  const upgrade = plan.upgrade_group;
  const moves = upgrade !== '' && user.group !== upgrade && (await moveUserGroup(trx, userId, user.group, upgrade));
  const total = Number(plan.total_amount);
  const id = await insertUserSubscription(trx, {
    user_id: userId,
    plan_id: Number(plan.id),
    amount_total: total,
    amount_used: 0,
    start_time: now,
    end_time: end,
    status: 'active',
    source,
    ...rule,
    last_reset_time: next > 0 ? now : 0,
    next_reset_time: next,
    upgrade_group: upgrade,
    prev_user_group: moves ? user.group : '',
    created_at: now,
    updated_at: now,
  });
  await insertSubscriptionLog(
    trx,
    options,
    user,
    LogType.TopUp,
    total,
    {
      code: GRANT_SOURCES[source],
      params: { plan: plan.title, amount: { quota: total }, money: payment.money.toFixed(2), method: payment.method },
    },
    { subscription_id: id, plan_id: Number(plan.id), source },
    now,
  );
  return { id, userId, upgradedTo: moves ? upgrade : '' };
}
