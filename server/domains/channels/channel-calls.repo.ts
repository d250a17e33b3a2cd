import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';

/* Reads and batch writes of `channel_calls` (issue 45). No rules here. */

export interface ChannelCallsWrite {
  channelId: number;
  okAt: number;
  failedAt: number;
  failure: string;
}

/**
 * One upsert per channel of a batch. Several instances write the same rows: each column keeps the later
 * time (and the failure text goes with its time), so an instance flushing late never hides a newer call.
 * CASE rather than max()/GREATEST so it reads the same on SQLite and PostgreSQL.
 */
export async function upsertChannelCalls(db: Db, rows: ChannelCallsWrite[]): Promise<void> {
  for (const r of rows)
    await db
      .insertInto('channel_calls')
      .values({ channel_id: r.channelId, ok_at: r.okAt, failed_at: r.failedAt, failure: r.failure })
      .onConflict((oc) =>
        oc.column('channel_id').doUpdateSet({
          ok_at: sql<number>`case when excluded.ok_at > channel_calls.ok_at then excluded.ok_at else channel_calls.ok_at end`,
          failed_at: sql<number>`case when excluded.failed_at > channel_calls.failed_at then excluded.failed_at else channel_calls.failed_at end`,
          failure: sql<string>`case when excluded.failed_at > channel_calls.failed_at then excluded.failure else channel_calls.failure end`,
        }),
      )
      .execute();
}

export const readChannelCalls = (db: Db, channelIds: number[]) =>
  channelIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('channel_calls')
        .select(['channel_id', 'ok_at', 'failed_at', 'failure'])
        .where('channel_id', 'in', channelIds)
        .execute();
