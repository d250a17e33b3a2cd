import { type RawBuilder, sql } from 'kysely';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
import { insertLogs } from '../../domains/logs/insert-logs.repo.ts';
import { messageLogFields } from '../../domains/logs/log-message.view.ts';

/*
 * The money and the poll claims of an asynchronous task after its submission (issue 40's one lifecycle):
 * the charge was kept at submit; when the task ends, its settlement gives back or takes the difference
 * from whoever paid, and several instances share the polling through a lease on the row. Video,
 * Midjourney (its own `midjourneys` table) and Suno (`tasks`) all use it, so a task paid from a
 * subscription pool is refunded to that pool, whichever platform it ran on.
 */

/** The tables task rows live in; both have the lease columns and a `status`. */
export type TaskTable = 'tasks' | 'midjourneys';

/** Who paid a task at submit, stored on its row. */
export interface TaskPayer {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  /** The subscription pool that paid; 0 = the wallet. */
  subscriptionId: number;
  channelId: number;
}

/** Who paid, as a task row keeps it in properties._switchyard (rows stored before plans paid lack some of it). */
export interface StoredPayer {
  tokenId?: number;
  unlimitedToken?: boolean;
  subscriptionId?: number;
}

/** The payer of a stored task: its user and channel columns with the stored token and plan. */
export const taskPayerOf = (
  row: { user_id: number | string; channel_id: number | string },
  own: StoredPayer,
): TaskPayer => ({
  userId: Number(row.user_id),
  tokenId: own.tokenId ?? 0,
  unlimitedToken: own.unlimitedToken !== false,
  subscriptionId: own.subscriptionId ?? 0,
  channelId: Number(row.channel_id),
});

/** A balance changed between the read and the take (see takeExtraTaskQuota). */
export class BalanceMoved extends Error {
  constructor() {
    super('balance moved during a task settlement');
  }
}

export const FINAL_TASK_STATUSES = ['SUCCESS', 'FAILURE'] as const;

/** Gives `q` back to whoever paid at submit, and lowers the used counters. */
export async function giveBackTaskQuota(trx: Db, payer: TaskPayer, q: number): Promise<void> {
  if (payer.subscriptionId > 0)
    await trx
      .updateTable('user_subscriptions')
      .set({ amount_used: sql`case when amount_used > ${q} then amount_used - ${q} else 0 end` })
      .where('id', '=', payer.subscriptionId)
      .execute();
  await trx
    .updateTable('users')
    .set({
      ...(payer.subscriptionId > 0 ? {} : { quota: sql`quota + ${q}` }),
      used_quota: sql`used_quota - ${q}`,
    })
    .where('id', '=', payer.userId)
    .execute();
  if (payer.tokenId > 0)
    await trx
      .updateTable('tokens')
      .set({
        used_quota: sql`used_quota - ${q}`,
        ...(payer.unlimitedToken ? {} : { remain_quota: sql`remain_quota + ${q}` }),
      })
      .where('id', '=', payer.tokenId)
      .execute();
  if (payer.channelId > 0)
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota - ${q}` })
      .where('id', '=', payer.channelId)
      .execute();
}

/**
 * Takes up to `want` more (the job produced more than was reserved): no more than the payer's
 * balance and a limited token's remain hold, each a conditional update. Returns what was taken.
 */
export async function takeExtraTaskQuota(trx: Db, payer: TaskPayer, want: number): Promise<number> {
  let take = want;
  if (payer.subscriptionId > 0) {
    const s = await trx
      .selectFrom('user_subscriptions')
      .select(['amount_total', 'amount_used'])
      .where('id', '=', payer.subscriptionId)
      .executeTakeFirst();
    const total = Number(s?.amount_total ?? 0);
    if (total > 0) take = Math.min(take, Math.max(0, total - Number(s?.amount_used ?? 0)));
  } else {
    const u = await trx.selectFrom('users').select('quota').where('id', '=', payer.userId).executeTakeFirst();
    take = Math.min(take, Math.max(0, Number(u?.quota ?? 0)));
  }
  if (payer.tokenId > 0 && !payer.unlimitedToken) {
    const t = await trx.selectFrom('tokens').select('remain_quota').where('id', '=', payer.tokenId).executeTakeFirst();
    take = Math.min(take, Math.max(0, Number(t?.remain_quota ?? 0)));
  }
  if (take <= 0) return 0;
  // Each take is conditional on the balance it read: a payment made meanwhile elsewhere (PostgreSQL runs
  // them side by side) makes it miss, and the settlement rolls back to be tried at the next poll.
  const took = (r: { numUpdatedRows: bigint }) => {
    if (Number(r.numUpdatedRows) !== 1) throw new BalanceMoved();
  };
  if (payer.subscriptionId > 0)
    took(
      await trx
        .updateTable('user_subscriptions')
        .set({ amount_used: sql`amount_used + ${take}` })
        .where('id', '=', payer.subscriptionId)
        .where((eb) =>
          eb.or([eb('amount_total', '=', 0), eb(sql`amount_used + ${take}`, '<=', eb.ref('amount_total'))]),
        )
        .executeTakeFirst(),
    );
  took(
    await trx
      .updateTable('users')
      .set({
        ...(payer.subscriptionId > 0 ? {} : { quota: sql`quota - ${take}` }),
        used_quota: sql`used_quota + ${take}`,
      })
      .where('id', '=', payer.userId)
      .$if(payer.subscriptionId === 0, (b) => b.where('quota', '>=', take))
      .executeTakeFirst(),
  );
  if (payer.tokenId > 0 && !payer.unlimitedToken)
    took(
      await trx
        .updateTable('tokens')
        .set({ used_quota: sql`used_quota + ${take}`, remain_quota: sql`remain_quota - ${take}` })
        .where('id', '=', payer.tokenId)
        .where('remain_quota', '>=', take)
        .executeTakeFirst(),
    );
  else if (payer.tokenId > 0)
    await trx
      .updateTable('tokens')
      .set({ used_quota: sql`used_quota + ${take}` })
      .where('id', '=', payer.tokenId)
      .execute();
  if (payer.channelId > 0)
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${take}` })
      .where('id', '=', payer.channelId)
      .execute();
  return take;
}

/*
 * The poll schedule (migration 2026-11-29T0000-task-leases): every instance's poller asks for due
 * rows, then claims each with a conditional update, so one instance polls a job at a time; the
 * settlement's own conditional status change keeps it exactly once even if a lease runs out mid-poll.
 */

/** Unfinished tasks (of those `which` picks) whose next poll is due and that no instance holds. */
export const dueTasks = (db: Db, which: RawBuilder<boolean>, now: number, limit: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where(which)
    .where('status', 'not in', FINAL_TASK_STATUSES)
    .where('next_poll_at', '<=', now)
    .where('lease_until', '<=', now)
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();

/** Claims a due row for `leaseS` seconds; false when another instance got it first or it is final. */
export async function claimTask(
  db: Db,
  id: number,
  now: number,
  leaseS: number,
  table: TaskTable = 'tasks',
): Promise<boolean> {
  const r = await db
    // The two tables share these columns; Kysely types one at a time.
    .updateTable(table as 'tasks')
    .set({ lease_until: now + leaseS })
    .where('id', '=', id)
    .where('lease_until', '<=', now)
    .where('status', 'not in', FINAL_TASK_STATUSES)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Frees a claimed row and sets its next poll. */
export const releaseTask = (db: Db, id: number, nextPollAt: number, table: TaskTable = 'tasks') =>
  db
    .updateTable(table as 'tasks')
    .set({ lease_until: 0, next_poll_at: nextPollAt })
    .where('id', '=', id)
    .execute();

/** A Midjourney or Suno task that ended in failure (video settles through video-tasks.repo.ts settleVideo). */
export interface TaskFailure {
  table: TaskTable;
  id: number;
  payer: TaskPayer;
  /** What was charged at submit: all of it goes back. */
  quota: number;
  failReason: string;
  /** Column updates that go with the failure (finish time, progress, upstream data). */
  changes: Record<string, string | number>;
  /** The price key, shown as the refund row's model. */
  model: string;
  /** The refund row's line: "构图失败 <mj_id>…" or "Suno 任务失败 <task_id>…". */
  refundOf: { code: 'log.task_refund_midjourney' | 'log.task_refund_suno'; taskId: string };
}

/**
 * Marks a task FAILURE and gives its charge back to whoever paid (wallet or subscription pool, the
 * limited token's remain), with the refund row, in one transaction whose first statement is the
 * conditional status change: when two pollers (two instances, or a poll and the timeout) see the same
 * failure, only the one that moved the status refunds. Returns the refund row, or null when another
 * got there first (or nothing was charged).
 */
export async function failAndRefundTask(db: Db, f: TaskFailure): Promise<NewLog | null> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable(f.table as 'tasks')
      .set({ ...f.changes, status: 'FAILURE', fail_reason: f.failReason.slice(0, 1000) })
      .where('id', '=', f.id)
      .where('status', 'not in', FINAL_TASK_STATUSES)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1 || f.quota <= 0) return null;
    await giveBackTaskQuota(trx, f.payer, f.quota);
    const user = await trx.selectFrom('users').select('username').where('id', '=', f.payer.userId).executeTakeFirst();
    const log: NewLog = {
      user_id: f.payer.userId,
      username: user?.username ?? '',
      created_at: nowSeconds(),
      type: 4,
      ...messageLogFields(
        {
          code: f.refundOf.code,
          params: { task_id: f.refundOf.taskId, amount: { quota: f.quota }, reason: f.failReason.slice(0, 1000) },
        },
        { other: { task_refund: true }, maxLength: 1000 },
      ),
      quota: f.quota,
      channel_id: f.payer.channelId,
      model_name: f.model,
    };
    await insertLogs(trx, [log]);
    return log;
  });
}
