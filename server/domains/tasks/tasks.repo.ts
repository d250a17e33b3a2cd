import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/types.ts';
import type { MidjourneyRow, MidjourneysTable, TaskRow, TasksTable } from './tasks.table.ts';
import { TASK_PAGE_SIZE, type MjListInput, type TaskListInput } from '../../../shared/schemas/tasks.ts';

/** Statuses after which a task never changes again: the poller skips them. */
export const FINISHED_STATUSES = ['SUCCESS', 'FAILURE'];

export async function insertMidjourney(db: Db, row: Insertable<MidjourneysTable>): Promise<number> {
  const r = await db.insertInto('midjourneys').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export const mjByMjId = (db: Db, mjId: string) =>
  db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();

export const mjByUserAndIds = (db: Db, userId: number, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([] as MidjourneyRow[])
    : db
        .selectFrom('midjourneys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('mj_id', 'in', ids)
        .orderBy('id', 'desc')
        .execute();

export const findMidjourneyById = (db: Db, id: number) =>
  db.selectFrom('midjourneys').selectAll().where('id', '=', id).executeTakeFirst();

/** A poll's news of a drawing task; one already FAILURE (refunded by relay/tasks/task-ledger.repo.ts) stays so. */
export const updateMidjourneyUnlessFailed = (db: Db, id: number, patch: Updateable<MidjourneysTable>) =>
  db.updateTable('midjourneys').set(patch).where('id', '=', id).where('status', '!=', 'FAILURE').execute();

/** A poll's news of a task; one already FAILURE (refunded by relay/tasks/task-ledger.repo.ts) stays so. */
export const updateTaskUnlessFailed = (db: Db, id: number, patch: Updateable<TasksTable>) =>
  db.updateTable('tasks').set(patch).where('id', '=', id).where('status', '!=', 'FAILURE').execute();

/*
 * The task lifecycle's leased poll (relay/tasks/lifecycle.ts): unfinished tasks that reached the upstream
 * (they have an id there) whose next poll is due and that no instance holds. A task the upstream never
 * finishes (lost, or left waiting for a modal) is failed and refunded at TaskTimeoutMinutes, so it
 * cannot crowd out new ones.
 */

/** Drawings due for a poll (next_poll_at and lease_until are unix seconds; the row's times are ms). */
export const dueMidjourneys = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('midjourneys')
    .selectAll()
    .where('status', 'not in', FINISHED_STATUSES)
    .where('mj_id', '!=', '')
    .where('channel_id', '>', 0)
    .where('next_poll_at', '<=', now)
    .where('lease_until', '<=', now)
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();

/** Rows to skip and to answer (the 2026 lists' paging). */
export interface Range {
  offset: number;
  limit: number;
}

/**
 * Drawing times are unix milliseconds (new-api and the Midjourney-proxy protocol);
 * new-api's console filters with milliseconds, other clients send seconds: both work.
 */
const toMs = (t: number) => (t < 100_000_000_000 ? t * 1000 : t);

function midjourneysWhere(db: Db, q: MjListInput, userId?: number) {
  return db
    .selectFrom('midjourneys')
    .$if(userId !== undefined, (b) => b.where('user_id', '=', userId!))
    .$if(q.channel_id !== undefined, (b) => b.where('channel_id', '=', q.channel_id!))
    .$if(q.mj_id !== undefined, (b) => b.where('mj_id', '=', q.mj_id!))
    .$if(q.start_timestamp !== undefined, (b) => b.where('submit_time', '>=', toMs(q.start_timestamp!)))
    .$if(q.end_timestamp !== undefined, (b) => b.where('submit_time', '<=', toMs(q.end_timestamp!)));
}

/** One range of drawings, newest first; `range` defaults to the April 2025 page `q.p` of 10. */
export async function listMidjourneys(
  db: Db,
  q: MjListInput,
  userId?: number,
  range?: Range,
): Promise<MidjourneyRow[]> {
  const { offset, limit } = range ?? { offset: q.p * TASK_PAGE_SIZE, limit: TASK_PAGE_SIZE };
  return midjourneysWhere(db, q, userId).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countMidjourneys(db: Db, q: MjListInput, userId?: number): Promise<number> {
  const r = await midjourneysWhere(db, q, userId)
    .select((e) => e.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertTask(db: Db, row: Insertable<TasksTable>): Promise<number> {
  const r = await db.insertInto('tasks').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export const tasksByUserAndIds = (db: Db, userId: number, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([] as TaskRow[])
    : db
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('task_id', 'in', ids)
        .orderBy('id', 'desc')
        .execute();

/** One platform's tasks (Suno's) due for a poll. */
export const duePlatformTasks = (db: Db, platform: string, now: number, limit: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', platform)
    .where('status', 'not in', FINISHED_STATUSES)
    .where('task_id', '!=', '')
    .where('channel_id', '>', 0)
    .where('next_poll_at', '<=', now)
    .where('lease_until', '<=', now)
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();

function tasksWhere(db: Db, q: TaskListInput, userId?: number) {
  return db
    .selectFrom('tasks')
    .$if(userId !== undefined, (b) => b.where('user_id', '=', userId!))
    .$if(q.channel_id !== undefined, (b) => b.where('channel_id', '=', q.channel_id!))
    .$if(q.task_id !== undefined, (b) => b.where('task_id', '=', q.task_id!))
    .$if(q.status !== undefined, (b) => b.where('status', '=', q.status!))
    .$if(q.action !== undefined, (b) => b.where('action', '=', q.action!))
    .$if(q.platform !== undefined, (b) => b.where('platform', '=', q.platform!))
    .$if(q.start_timestamp !== undefined, (b) => b.where('submit_time', '>=', q.start_timestamp!))
    .$if(q.end_timestamp !== undefined, (b) => b.where('submit_time', '<=', q.end_timestamp!));
}

/** One range of tasks, newest first; `range` defaults to the April 2025 page `q.p` of 10. */
export async function listTasks(db: Db, q: TaskListInput, userId?: number, range?: Range): Promise<TaskRow[]> {
  const { offset, limit } = range ?? { offset: q.p * TASK_PAGE_SIZE, limit: TASK_PAGE_SIZE };
  return tasksWhere(db, q, userId).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countTasks(db: Db, q: TaskListInput, userId?: number): Promise<number> {
  const r = await tasksWhere(db, q, userId)
    .select((e) => e.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
