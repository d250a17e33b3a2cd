import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { Db, NewLog, TaskRow } from '../../../db/types.ts';
import { insertLogs } from '../../../domains/logs/insert-logs.repo.ts';
import { messageLogFields } from '../../../domains/logs/log-message.view.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';
import {
  dueTasks,
  FINAL_TASK_STATUSES as FINAL_STATUSES,
  giveBackTaskQuota,
  takeExtraTaskQuota,
  taskPayerOf,
} from '../task-ledger.repo.ts';
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

export { FINAL_STATUSES };

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
  /** The group the job was priced in (its log rows say it). */
  group?: string;
  /**
   * The terms it was sold on; sizeMultiplier is the reserved frame's, kept for a settlement the
   * upstream reports no frame for; samePriceAnySize, that no frame changes the price.
   */
  price: Omit<VideoPrice, 'quota'> & { reserved: number; quotaPerUnit: number; samePriceAnySize?: boolean };
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
    const payer = taskPayerOf(row, own);
    if (delta > 0) delta = await takeExtraTaskQuota(trx, payer, delta);
    else if (delta < 0) await giveBackTaskQuota(trx, payer, -delta);
    const finalCharge = charged + delta;
    if (delta !== 0) await trx.updateTable('tasks').set({ quota: finalCharge }).where('id', '=', row.id).execute();

    const user = await trx.selectFrom('users').select('username').where('id', '=', row.user_id).executeTakeFirst();
    // The token's name too, so the settlement's row sits beside its submission's in the log.
    const token =
      own.tokenId > 0
        ? await trx.selectFrom('tokens').select('name').where('id', '=', own.tokenId).executeTakeFirst()
        : undefined;
    const base = {
      user_id: Number(row.user_id),
      username: user?.username ?? '',
      created_at: now,
      channel_id: Number(row.channel_id),
      token_id: own.tokenId,
      token_name: token?.name ?? '',
      group: own.group ?? '',
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

/** Video rows for the leased poll (task-ledger.repo.ts). */
export const dueVideos = (db: Db, now: number, limit: number) => dueTasks(db, isVideoRow, now, limit);
