import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { OptionsService } from '../options/options.service.ts';
import { resetSubscriptionPeriod } from './period.service.ts';
import { findPlan, listLiveSubscriptions } from './subscriptions.repo.ts';

/** What the relay needs to know of one live subscription, without asking the database. */
export interface PoolEntry {
  id: number;
  userId: number;
  endTime: number;
  /** 0 = never resets. */
  nextResetTime: number;
}

export type SubscriptionPool = Awaited<ReturnType<typeof createSubscriptionPool>>;

/**
 * The users' live subscriptions, in memory: which users have one, when each ends and when its
 * period resets. The relay asks it on every call (a map lookup), never the database; whether a
 * pool still holds enough quota is decided by the conditional update that takes it (billing). Every
 * write to a user's subscriptions publishes `subscriptions` with the user id (on every instance,
 * through the bus), and that user's entries are read again; a start reads them all.
 */
export async function createSubscriptionPool(infra: Pick<Infra, 'db' | 'bus' | 'log'>, options: OptionsService) {
  const byUser = new Map<number, PoolEntry[]>();
  const toEntry = (r: { id: number; user_id: number; end_time: number; next_reset_time: number }): PoolEntry => ({
    id: Number(r.id),
    userId: Number(r.user_id),
    endTime: Number(r.end_time),
    nextResetTime: Number(r.next_reset_time),
  });
  const put = (userId: number, entries: PoolEntry[]) => {
    // Soonest-ending first: what would lapse is spent before what lasts.
    entries.sort((a, b) => a.endTime - b.endTime || a.id - b.id);
    if (entries.length === 0) byUser.delete(userId);
    else byUser.set(userId, entries);
  };
  async function reloadUser(userId: number) {
    put(userId, (await listLiveSubscriptions(infra.db, nowSeconds(), userId)).map(toEntry));
  }
  async function reloadAll() {
    const grouped = new Map<number, PoolEntry[]>();
    for (const r of await listLiveSubscriptions(infra.db, nowSeconds())) {
      const e = toEntry(r);
      grouped.set(e.userId, [...(grouped.get(e.userId) ?? []), e]);
    }
    byUser.clear();
    for (const [userId, entries] of grouped) put(userId, entries);
  }
  await reloadAll();
  infra.bus.subscribe('subscriptions', (payload) => {
    const userId = Number(payload);
    const done = Number.isInteger(userId) && userId > 0 ? reloadUser(userId) : reloadAll();
    done.catch((err: unknown) => infra.log.error({ err }, 'could not reload the subscription pool index'));
  });

  const planTitle = async (planId: number) => (await findPlan(infra.db, planId))?.title ?? '';

  return {
    planTitle,
    /**
     * A request found this pool's period due: start the new one (once across requests, the timer and
     * instances: the update is conditional on the reset time seen) and note the next reset.
     */
    async resetDue(entry: PoolEntry, now: number): Promise<void> {
      const seen = entry.nextResetTime;
      const next = await resetSubscriptionPeriod(infra.db, options, entry.id, seen, now, planTitle);
      if (next !== null) {
        if (entry.nextResetTime === seen) entry.nextResetTime = next;
        infra.bus.publish('subscriptions', String(entry.userId));
      } else await reloadUser(entry.userId);
    },
    /** The user's subscriptions usable at `now`, soonest-ending first; empty for most users. */
    live(userId: number, now = nowSeconds()): PoolEntry[] {
      const entries = byUser.get(userId);
      if (!entries) return [];
      return entries.some((e) => e.endTime <= now) ? entries.filter((e) => e.endTime > now) : entries;
    },
    has: (userId: number, now = nowSeconds()) => (byUser.get(userId) ?? []).some((e) => e.endTime > now),
    /** Re-reads a user now (after a write on this instance), besides publishing to the others. */
    reloadUser,
    changed(userId: number) {
      infra.bus.publish('subscriptions', String(userId));
    },
  };
}
