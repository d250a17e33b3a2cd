import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { Db, NewLog, TaskRow } from '../../../db/types.ts';
import { insertLogs } from '../../../domains/logs/insert-logs.repo.ts';
import { messageLogFields } from '../../../domains/logs/log-message.view.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';
import type { VideoPrice } from './price.ts';
import type { VideoDoor, VideoProgress, VideoState, VideoTaskView, VideoVariant } from './types.ts';

/*
 * Video jobs in the `tasks` table, as new-api stores them (platform = the channel type as text,
 * action textGenerate / generate / firstTailGenerate / remixGenerate, statuses NOT_START .. SUCCESS /
 * FAILURE), so new-api's consoles read them through /api/task. What the gateway alone needs (the
 * upstream id and files, who paid, the price) is in properties._switchyard, which every answer strips.
 */

/** Gateway ids: `video_` + 32 hex, never the upstream's. */
export const newVideoId = () => `video_${randomBytes(16).toString('hex')}`;
/**
 * Video rows by their id prefix: LIKE with an explicit ESCAPE (SQLite has no default escape, and a
 * string range would follow PostgreSQL's collation, not byte order).
 */
const isVideoRow = sql<boolean>`task_id like 'video!_%' escape '!'`;
export const isVideoId = (id: string) => /^video_[0-9a-f]{32}$/.test(id);

export const FINAL_STATUSES = ['SUCCESS', 'FAILURE'] as const;

const STATUS_OF: Record<VideoState, string> = {
  queued: 'QUEUED',
  in_progress: 'IN_PROGRESS',
  completed: 'SUCCESS',
  failed: 'FAILURE',
};
const STATE_OF: Record<string, VideoState> = {
  NOT_START: 'queued',
  SUBMITTED: 'queued',
  QUEUED: 'queued',
  IN_PROGRESS: 'in_progress',
  SUCCESS: 'completed',
  FAILURE: 'failed',
};
export const statusOf = (s: VideoState) => STATUS_OF[s];
export const stateOf = (status: string): VideoState => STATE_OF[status] ?? 'queued';
export const isFinal = (status: string) => status === 'SUCCESS' || status === 'FAILURE';

/** The server-side half of a video row (never shown). */
export interface VideoOwn {
  video: true;
  door: VideoDoor;
  upstreamId: string;
  upstreamModel: string;
  tokenId: number;
  unlimitedToken: boolean;
  /** The subscription pool that paid (0 = wallet). */
  subscriptionId: number;
  price: Omit<VideoPrice, 'quota'> & { reserved: number; quotaPerUnit: number };
  content?: VideoProgress['content'];
  variants: VideoVariant[];
  remixedFromId?: string;
  expiresAt?: number;
  /** Deleted by its owner (DELETE /v1/videos/{id}): kept for the log, 404 to every door. */
  deleted?: boolean;
}

/** The public half (properties without _switchyard): what /api/task shows. */
export interface VideoPublic {
  input: string;
  origin_model_name: string;
  seconds: number;
  size?: string;
  resolution?: string;
  aspect_ratio?: string;
}

export interface VideoRowParts {
  pub: VideoPublic;
  own: VideoOwn;
}

export function partsOf(row: TaskRow): VideoRowParts {
  const props = parseJson(row.properties, {}) as VideoPublic & { _switchyard?: VideoOwn };
  const { _switchyard, ...pub } = props;
  return { pub, own: _switchyard as VideoOwn };
}

export const propertiesOf = (pub: VideoPublic, own: VideoOwn) => JSON.stringify({ ...pub, _switchyard: own });

/** A stored row as every door reads it. */
export function videoView(row: TaskRow): VideoTaskView {
  const { pub, own } = partsOf(row);
  const state = stateOf(row.status);
  const progress = Number.parseInt(row.progress, 10);
  return {
    id: row.task_id,
    model: pub.origin_model_name,
    state,
    progress: state === 'completed' ? 100 : Number.isFinite(progress) ? progress : 0,
    prompt: pub.input,
    seconds: pub.seconds,
    ...(pub.size ? { size: pub.size } : {}),
    ...(pub.resolution ? { resolution: pub.resolution } : {}),
    ...(pub.aspect_ratio ? { aspectRatio: pub.aspect_ratio } : {}),
    createdAt: Number(row.submit_time),
    ...(Number(row.finish_time) > 0 && isFinal(row.status) ? { completedAt: Number(row.finish_time) } : {}),
    ...(own.expiresAt ? { expiresAt: own.expiresAt } : {}),
    ...(state === 'failed'
      ? { error: { code: 'video_generation_failed', message: row.fail_reason || serverText('task.failed') } }
      : {}),
    ...(own.remixedFromId ? { remixedFromId: own.remixedFromId } : {}),
    quota: Number(row.quota),
    door: own.door,
    variants: own.variants,
  };
}

/** The caller's own video job by gateway id (undefined for another user's or an unknown id). */
export const ownVideo = (db: Db, userId: number, id: string) =>
  db.selectFrom('tasks').selectAll().where('task_id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export const videoById = (db: Db, id: number) =>
  db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();

/** A client's delete: the row stays (task log, reconciliation), flagged so no door shows it again. */
export const markVideoDeleted = (db: Db, row: TaskRow) => {
  const { pub, own } = partsOf(row);
  return db
    .updateTable('tasks')
    .set({ properties: propertiesOf(pub, { ...own, deleted: true }) })
    .where('id', '=', row.id)
    .execute();
};

/** The `deleted` flag as it reads in the stored JSON (propertiesOf writes it without spaces). */
const DELETED_MARK = '%"deleted":true%';

/** The caller's jobs by row id (the cursor is a gateway id, turned into its row id). */
export async function listOwnVideos(
  db: Db,
  userId: number,
  q: { afterRowId?: number; limit: number; order: 'asc' | 'desc' },
): Promise<TaskRow[]> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where(isVideoRow)
    .where('properties', 'not like', DELETED_MARK)
    .$if(q.afterRowId !== undefined, (b) => b.where('id', q.order === 'desc' ? '<' : '>', q.afterRowId!))
    .orderBy('id', q.order)
    .limit(q.limit)
    .execute();
}

/**
 * A poll's news of an unfinished job (queued/in progress): applied only while the row is not
 * final, so a late poll never reopens a settled job.
 */
export async function updateRunning(db: Db, row: TaskRow, p: VideoProgress, own: VideoOwn): Promise<void> {
  const now = nowSeconds();
  const status = statusOf(p.state);
  await db
    .updateTable('tasks')
    .set({
      status,
      progress: `${Math.max(0, Math.min(99, Math.round(p.progress)))}%`,
      updated_at: now,
      start_time: Number(row.start_time) || (p.state === 'in_progress' ? now : 0),
      properties: propertiesOf(partsOf(row).pub, { ...own, content: p.content ?? own.content }),
    })
    .where('id', '=', row.id)
    .where('status', 'not in', FINAL_STATUSES)
    .execute();
}

/** How a job ended, for its one settlement. */
export interface VideoEnd {
  /** SUCCESS with the final price, or FAILURE (refund all). */
  status: 'SUCCESS' | 'FAILURE';
  /** The price of what was produced (SUCCESS only). */
  finalQuota: number;
  producedSeconds?: number;
  size?: string;
  resolution?: string;
  failReason?: string;
  content?: VideoProgress['content'];
}

/**
 * Settles a job exactly once: the status moves to SUCCESS or FAILURE by a conditional update
 * (WHERE status is not final) that is the first statement of the transaction, and only the
 * transaction that moved it changes balances and writes the log row. Two pollers, two instances
 * or a reader and a poller therefore settle once. The charge was taken at submit (the reserved
 * amount); here the difference goes back where it was paid (wallet or subscription pool, and a
 * limited token's remain), or the extra is taken, never below zero. Returns the log row written,
 * or null when another settled it first.
 */
export async function settleVideo(db: Db, row: TaskRow, end: VideoEnd): Promise<NewLog | null> {
  return db.transaction().execute(async (trx) => {
    const { pub, own } = partsOf(row);
    const charged = Number(row.quota);
    const now = nowSeconds();
    const moved = await trx
      .updateTable('tasks')
      .set({
        status: end.status,
        progress: end.status === 'SUCCESS' ? '100%' : row.progress,
        fail_reason: end.status === 'FAILURE' ? (end.failReason ?? serverText('task.failed')).slice(0, 1000) : '',
        finish_time: now,
        updated_at: now,
        start_time: Number(row.start_time) || now,
        properties: propertiesOf(
          end.status === 'SUCCESS'
            ? {
                ...pub,
                seconds: end.producedSeconds ?? pub.seconds,
                size: end.size ?? pub.size,
                resolution: end.resolution ?? pub.resolution,
              }
            : pub,
          { ...own, content: end.content ?? own.content },
        ),
      })
      .where('id', '=', row.id)
      .where('status', 'not in', FINAL_STATUSES)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;

    const target = end.status === 'FAILURE' ? 0 : Math.max(0, end.finalQuota);
    let delta = target - charged; // > 0: take more; < 0: give back
    if (delta > 0) delta = await takeExtra(trx, row, own, delta);
    else if (delta < 0) await giveBack(trx, row, own, -delta);
    const finalCharge = charged + delta;
    if (delta !== 0) await trx.updateTable('tasks').set({ quota: finalCharge }).where('id', '=', row.id).execute();

    const user = await trx.selectFrom('users').select('username').where('id', '=', row.user_id).executeTakeFirst();
    const base = {
      user_id: Number(row.user_id),
      username: user?.username ?? '',
      created_at: now,
      channel_id: Number(row.channel_id),
      token_id: own.tokenId,
      model_name: pub.origin_model_name,
    };
    const log: NewLog =
      end.status === 'FAILURE'
        ? {
            ...base,
            type: 4,
            quota: charged,
            ...messageLogFields(
              {
                code: 'log.video_refund',
                params: {
                  task_id: row.task_id,
                  amount: { quota: charged },
                  reason: (end.failReason ?? serverText('task.failed')).slice(0, 500),
                },
              },
              { other: { task_refund: true, video: true }, maxLength: 1000 },
            ),
          }
        : {
            ...base,
            // The settlement itself: a refund row when money came back, a consume row for an extra charge.
            type: delta < 0 ? 4 : 2,
            quota: Math.abs(delta),
            ...messageLogFields(
              {
                code: 'log.video_settled',
                params: {
                  task_id: row.task_id,
                  seconds: end.producedSeconds ?? pub.seconds,
                  reserved: { quota: charged },
                  charged: { quota: finalCharge },
                  refunded: { quota: Math.max(0, -delta) },
                },
              },
              { other: { video: true, reserved: charged, charged: finalCharge, refunded: Math.max(0, -delta) } },
            ),
          };
    await insertLogs(trx, [log]);
    return log;
  });
}

/** Gives `q` back to whoever paid at submit, and lowers the used counters. */
async function giveBack(trx: Db, row: TaskRow, own: VideoOwn, q: number) {
  if (own.subscriptionId > 0)
    await trx
      .updateTable('user_subscriptions')
      .set({ amount_used: sql`case when amount_used > ${q} then amount_used - ${q} else 0 end` })
      .where('id', '=', own.subscriptionId)
      .execute();
  await trx
    .updateTable('users')
    .set({
      ...(own.subscriptionId > 0 ? {} : { quota: sql`quota + ${q}` }),
      used_quota: sql`used_quota - ${q}`,
    })
    .where('id', '=', row.user_id)
    .execute();
  if (own.tokenId > 0)
    await trx
      .updateTable('tokens')
      .set({
        used_quota: sql`used_quota - ${q}`,
        ...(own.unlimitedToken ? {} : { remain_quota: sql`remain_quota + ${q}` }),
      })
      .where('id', '=', own.tokenId)
      .execute();
  if (Number(row.channel_id) > 0)
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota - ${q}` })
      .where('id', '=', row.channel_id)
      .execute();
}

/**
 * Takes up to `want` more (the job produced more than was reserved): no more than the payer's
 * balance and a limited token's remain hold, each a conditional update. Returns what was taken.
 */
async function takeExtra(trx: Db, row: TaskRow, own: VideoOwn, want: number): Promise<number> {
  let take = want;
  if (own.subscriptionId > 0) {
    const s = await trx
      .selectFrom('user_subscriptions')
      .select(['amount_total', 'amount_used'])
      .where('id', '=', own.subscriptionId)
      .executeTakeFirst();
    const total = Number(s?.amount_total ?? 0);
    if (total > 0) take = Math.min(take, Math.max(0, total - Number(s?.amount_used ?? 0)));
  } else {
    const u = await trx.selectFrom('users').select('quota').where('id', '=', row.user_id).executeTakeFirst();
    take = Math.min(take, Math.max(0, Number(u?.quota ?? 0)));
  }
  if (own.tokenId > 0 && !own.unlimitedToken) {
    const t = await trx.selectFrom('tokens').select('remain_quota').where('id', '=', own.tokenId).executeTakeFirst();
    take = Math.min(take, Math.max(0, Number(t?.remain_quota ?? 0)));
  }
  if (take <= 0) return 0;
  if (own.subscriptionId > 0)
    await trx
      .updateTable('user_subscriptions')
      .set({ amount_used: sql`amount_used + ${take}` })
      .where('id', '=', own.subscriptionId)
      .execute();
  await trx
    .updateTable('users')
    .set({
      ...(own.subscriptionId > 0 ? {} : { quota: sql`quota - ${take}` }),
      used_quota: sql`used_quota + ${take}`,
    })
    .where('id', '=', row.user_id)
    .execute();
  if (own.tokenId > 0)
    await trx
      .updateTable('tokens')
      .set({
        used_quota: sql`used_quota + ${take}`,
        ...(own.unlimitedToken ? {} : { remain_quota: sql`remain_quota - ${take}` }),
      })
      .where('id', '=', own.tokenId)
      .execute();
  if (Number(row.channel_id) > 0)
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${take}` })
      .where('id', '=', row.channel_id)
      .execute();
  return take;
}

/*
 * The poll schedule (migration 2026-11-29T0000-task-leases): every instance's poller asks for due
 * rows, then claims each with a conditional update, so one instance polls a job at a time; the
 * settlement's own conditional status change keeps it exactly once even if a lease runs out mid-poll.
 */

/** Unfinished video jobs whose next poll is due and that no instance holds. */
export const dueVideos = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where(isVideoRow)
    .where('status', 'not in', FINAL_STATUSES)
    .where('next_poll_at', '<=', now)
    .where('lease_until', '<=', now)
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();

/** Claims a due row for `leaseS` seconds; false when another instance got it first or it is final. */
export async function claimVideo(db: Db, id: number, now: number, leaseS: number): Promise<boolean> {
  const r = await db
    .updateTable('tasks')
    .set({ lease_until: now + leaseS })
    .where('id', '=', id)
    .where('lease_until', '<=', now)
    .where('status', 'not in', FINAL_STATUSES)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Frees a claimed row and sets its next poll. */
export const releaseVideo = (db: Db, id: number, nextPollAt: number) =>
  db.updateTable('tasks').set({ lease_until: 0, next_poll_at: nextPollAt }).where('id', '=', id).execute();
