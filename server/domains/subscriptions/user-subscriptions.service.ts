import { normalizeBillingPreference } from '../../../shared/schemas/subscriptions.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findSettingText, saveSettingText } from '../user-settings/user-settings.repo.ts';
import { assertOutranks, type Actor } from '../users/users.rules.ts';
import { grantPlan } from './grant.service.ts';
import { restoreGroup, runDuePeriods } from './period.service.ts';
import type { SubscriptionPool } from './pool.service.ts';
import {
  cancelSubscription,
  deleteUserSubscription,
  findPlan,
  findSubscriber,
  findUserSubscription,
  listPlans,
  listUserSubscriptions,
} from './subscriptions.repo.ts';
import { summaryView } from './subscriptions.view.ts';

export type UserSubscriptionsService = ReturnType<typeof createUserSubscriptionsService>;

const settingObject = (text: string | undefined | null): Record<string, unknown> => {
  try {
    const v: unknown = text ? JSON.parse(text) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * Users' subscriptions: what a user sees of their own, their billing preference, and what an admin
 * does to a user's (grant without payment, cancel now, delete). Every change re-reads the user's entry
 * in the relay's pool index here and publishes it to the other instances.
 */
export function createUserSubscriptionsService(
  infra: Pick<Infra, 'db' | 'bus'>,
  options: OptionsService,
  pool: SubscriptionPool,
) {
  const { db, bus } = infra;

  /** After a write: this instance's index now, the others' through the bus; a moved group reloads the user. */
  async function changed(userId: number, groupMoved: boolean) {
    await pool.reloadUser(userId);
    pool.changed(userId);
    if (groupMoved) bus.publish('users', String(userId));
  }

  async function summaries(userId: number) {
    const now = nowSeconds();
    const [subs, plans] = await Promise.all([listUserSubscriptions(db, userId), listPlans(db, false)]);
    const titles = new Map(plans.map((p) => [Number(p.id), p.title]));
    const all = subs.map((s) => summaryView(s, titles, now));
    return { all, active: all.filter((s) => s.subscription.status === 'active') };
  }

  /** The target of an admin's action: it exists, and the admin outranks its owner (root excepted). */
  async function ownedSubscription(actor: Actor, id: number) {
    const sub = await findUserSubscription(db, id);
    if (!sub) throw notFound('subscription.not_found');
    const owner = await findSubscriber(db, Number(sub.user_id));
    if (owner) assertOutranks(actor, owner.role);
    return sub;
  }

  return {
    /** GET /api/subscription/self: the preference, the live subscriptions and every one the user had. */
    async self(userId: number) {
      const setting = settingObject(await findSettingText(db, userId));
      const { all, active } = await summaries(userId);
      return {
        billing_preference: normalizeBillingPreference(setting.billing_preference),
        subscriptions: active,
        all_subscriptions: all,
      };
    },

    /** Kept in the user's setting JSON as new-api does; the relay reads it with the user. */
    async setPreference(userId: number, value: string) {
      const billing_preference = normalizeBillingPreference(value);
      const text = await findSettingText(db, userId);
      if (text === undefined) throw notFound('user.not_found');
      await saveSettingText(db, userId, JSON.stringify({ ...settingObject(text), billing_preference }));
      bus.publish('users', String(userId));
      return { billing_preference };
    },

    async listForUser(actor: Actor, userId: number) {
      const owner = await findSubscriber(db, userId);
      if (!owner) throw notFound('user.not_found');
      if (actor.id !== userId) assertOutranks(actor, owner.role);
      return (await summaries(userId)).all;
    },

    /** An admin gives a user a plan without payment (new-api's bind); disabled plans too. */
    async grant(actor: Actor, userId: number, planId: number) {
      const owner = await findSubscriber(db, userId);
      if (!owner) throw notFound('user.not_found');
      assertOutranks(actor, owner.role);
      const plan = await findPlan(db, planId);
      if (!plan) throw notFound('subscription.plan_not_found');
      const granted = await db
        .transaction()
        .execute((trx) => grantPlan(trx, options, userId, plan, 'admin', nowSeconds()));
      await changed(userId, granted.upgradedTo !== '');
      return granted;
    },

    /** Ends a subscription now (status cancelled); its unused quota lapses and its group upgrade is undone. */
    async invalidate(actor: Actor, id: number) {
      const sub = await ownedSubscription(actor, id);
      const now = nowSeconds();
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await cancelSubscription(trx, id, now))) throw badRequest('subscription.not_active');
        return restoreGroup(trx, sub, now);
      });
      await changed(Number(sub.user_id), moved);
    },

    /** Removes a subscription and its record; a group upgrade it held is undone first. */
    async remove(actor: Actor, id: number) {
      const sub = await ownedSubscription(actor, id);
      const now = nowSeconds();
      const moved = await db.transaction().execute(async (trx) => {
        const undone = sub.status === 'active' ? await restoreGroup(trx, sub, now) : false;
        if (!(await deleteUserSubscription(trx, id))) throw notFound('subscription.not_found');
        return undone;
      });
      await changed(Number(sub.user_id), moved);
    },

    /** The timer's run: due resets granted, ended plans expired (each once, whichever instance runs it). */
    async maintain(now = nowSeconds()) {
      const { users, groupsMoved } = await runDuePeriods(db, options, now, pool.planTitle);
      for (const userId of users) await changed(userId, groupsMoved.has(userId));
      return users.size;
    },
  };
}
