import { sql } from 'kysely';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
import { messageLogFields } from '../logs/log-message.view.ts';

export interface TaskFailure {
  table: 'midjourneys' | 'tasks';
  id: number;
  userId: number;
  channelId: number;
  quota: number;
  failReason: string;
  /** Column updates that go with the failure (finish time, progress, upstream data). */
  changes: Record<string, string | number>;
  /** The token that paid, so a limited token gets its remaining quota back too. */
  token?: { id: number; unlimited: boolean };
  /** The price key, shown as the refund log's model. */
  model: string;
  /** Whose task it was and its upstream id: the refund log says "构图失败 <mj_id>…" or "Suno 任务失败 <task_id>…". */
  refundOf: { code: 'log.task_refund_midjourney' | 'log.task_refund_suno'; taskId: string };
}

/**
 * Marks a task FAILURE and gives its charge back, in one transaction whose first
 * statement is a conditional status change: when two pollers (or a restart and a
 * poll) see the same failure, only the one that moved the status refunds, so the
 * quota comes back exactly once. The charge was settled at submit, so the refund
 * is a compensation (balance back, used counters down), not a reservation refund.
 * Returns the refund log row to queue, or null when someone else already did it.
 */
export async function failAndRefund(db: Db, f: TaskFailure): Promise<NewLog | null> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable(f.table)
      .set({ ...f.changes, status: 'FAILURE', fail_reason: f.failReason })
      .where('id', '=', f.id)
      .where('status', '!=', 'FAILURE')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1 || f.quota <= 0) return null;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${f.quota}`, used_quota: sql`used_quota - ${f.quota}` })
      .where('id', '=', f.userId)
      .execute();
    if (f.token && f.token.id > 0)
      await trx
        .updateTable('tokens')
        .set({
          used_quota: sql`used_quota - ${f.quota}`,
          ...(f.token.unlimited ? {} : { remain_quota: sql`remain_quota + ${f.quota}` }),
        })
        .where('id', '=', f.token.id)
        .execute();
    if (f.channelId > 0)
      await trx
        .updateTable('channels')
        .set({ used_quota: sql`used_quota - ${f.quota}` })
        .where('id', '=', f.channelId)
        .execute();
    const user = await trx.selectFrom('users').select('username').where('id', '=', f.userId).executeTakeFirst();
    return {
      user_id: f.userId,
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
      channel_id: f.channelId,
      model_name: f.model,
    };
  });
}
