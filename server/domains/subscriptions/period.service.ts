import { LogType } from '../../../shared/constants.ts';
import type { StoredMessage } from '../../../shared/stored-message.ts';
import type { Db } from '../../db/types.ts';
import { insertLogs } from '../logs/insert-logs.repo.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import type { OptionsService } from '../options/options.service.ts';
import { quotaText } from '../topup/quota-text.view.ts';
import { nextResetAfter } from './subscriptions.rules.ts';
import {
  expireSubscription,
  findSubscriber,
  findUserSubscription,
  listDueResets,
  listEnded,
  moveUserGroup,
  otherUpgradedSubscription,
  resetPeriod,
} from './subscriptions.repo.ts';

/*
 * The subscription ledger's periodic side: a period's new quota (a reset) and a plan's end. Both are
 * conditional updates decided by the database, so a request, the timer and another instance racing for
 * the same reset or expiry grant or end it once; the ledger row is written in the same transaction.
 */

/** A ledger row of the user's subscription: the log's history and the operator's totals read these. */
export async function insertSubscriptionLog(
  db: Db,
  options: OptionsService,
  user: { id: number; username: string },
  type: number,
  quota: number,
  message: StoredMessage,
  other: Record<string, unknown>,
  now: number,
) {
  await insertLogs(db, [
    {
      user_id: user.id,
      username: user.username,
      created_at: now,
      type,
      quota,
      ...messageLogFields(message, { amountText: (q) => quotaText(options, q), other }),
    },
  ]);
}

/**
 * Starts the period that was due at `seenNext`: the pool empties and the ledger records the period's
 * grant (and what lapsed unused). The new reset time is returned, or null when someone else reset it
 * first (or it ended meanwhile): nothing is granted twice.
 */
export async function resetSubscriptionPeriod(
  db: Db,
  options: OptionsService,
  id: number,
  seenNext: number,
  now: number,
  planTitle: (planId: number) => Promise<string>,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const sub = await findUserSubscription(trx, id);
    if (!sub || Number(sub.next_reset_time) !== seenNext) return null;
    const next = nextResetAfter(seenNext, now, sub, Number(sub.end_time));
    if (!(await resetPeriod(trx, id, seenNext, now, next))) return null;
    const user = await findSubscriber(trx, Number(sub.user_id));
    if (user) {
      const total = Number(sub.amount_total);
      const lapsed = total > 0 ? Math.max(0, total - Number(sub.amount_used)) : 0;
      const plan = await planTitle(Number(sub.plan_id));
      await insertSubscriptionLog(
        trx,
        options,
        user,
        LogType.System,
        total,
        { code: 'log.subscription_reset', params: { plan, amount: { quota: total } } },
        { subscription_id: id, lapsed },
        now,
      );
    }
    return next;
  });
}

/** The timer's pass: resets found due and plans found ended. Returns the users whose pools changed. */
export async function runDuePeriods(
  db: Db,
  options: OptionsService,
  now: number,
  planTitle: (planId: number) => Promise<string>,
): Promise<{ users: Set<number>; groupsMoved: Set<number> }> {
  const users = new Set<number>();
  const groupsMoved = new Set<number>();
  for (const sub of await listDueResets(db, now, 500)) {
    const next = await resetSubscriptionPeriod(
      db,
      options,
      Number(sub.id),
      Number(sub.next_reset_time),
      now,
      planTitle,
    );
    if (next !== null) users.add(Number(sub.user_id));
  }
  for (const sub of await listEnded(db, now, 500)) {
    const moved = await db.transaction().execute(async (trx) => {
      if (!(await expireSubscription(trx, Number(sub.id), now))) return null;
      users.add(Number(sub.user_id));
      return restoreGroup(trx, sub, now);
    });
    if (moved) groupsMoved.add(Number(sub.user_id));
  }
  return { users, groupsMoved };
}

/**
 * A plan with an upgrade group moved the user there at purchase; when it ends (expires, is cancelled or
 * deleted) they go back to the group they had, unless another live subscription keeps them upgraded or
 * an admin has moved them since. True when the group changed.
 */
export async function restoreGroup(
  db: Db,
  sub: { id: number; user_id: number; upgrade_group: string; prev_user_group: string },
  now: number,
): Promise<boolean> {
  if (sub.upgrade_group === '' || sub.prev_user_group === '') return false;
  if (await otherUpgradedSubscription(db, Number(sub.user_id), Number(sub.id), now)) return false;
  return moveUserGroup(db, Number(sub.user_id), sub.upgrade_group, sub.prev_user_group);
}
