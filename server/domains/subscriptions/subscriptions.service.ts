import type { Infra } from '../../context.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { TopUpService } from '../topup/topup.service.ts';
import { createPlansService } from './plans.service.ts';
import type { SubscriptionPool } from './pool.service.ts';
import { createPurchaseService } from './purchase.service.ts';
import { createUserSubscriptionsService } from './user-subscriptions.service.ts';

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

/**
 * Subscription plans (issue 32): the plans an admin sells, what users hold and how they buy. The
 * relay's side is the pool index (pool.service.ts), built before billing, which reserves from it.
 */
export function createSubscriptionsService(
  infra: Pick<Infra, 'db' | 'bus' | 'log'>,
  options: OptionsService,
  topup: TopUpService,
  pool: SubscriptionPool,
) {
  return {
    plans: createPlansService(infra, options),
    users: createUserSubscriptionsService(infra, options, pool),
    purchase: createPurchaseService(infra, options, topup, pool),
  };
}
