import type { Infra } from '../../context.ts';
import type { MidjourneyRow, TaskRow } from './tasks.table.ts';
import type { MjListInput, TaskListInput } from '../../../shared/schemas/tasks.ts';
import type { OptionsService } from '../options/options.service.ts';
import { videoResultUrl, videoTaskSummary } from './video-task.view.ts';
import { countMidjourneys, countTasks, listMidjourneys, listTasks, type Range } from './tasks.repo.ts';

export type TasksService = ReturnType<typeof createTasksService>;

/** The drawing row as the console and /api/mj answer it (api-contract §1 Midjourney). */
/**
 * The task lifecycle's poll bookkeeping (an instance's lease, the backoff) is the gateway's own:
 * new-api's consoles read its Task and Midjourney shapes, which have no such fields.
 */
function withoutLease<T extends object>(row: T): Omit<T, 'lease_until' | 'next_poll_at'> {
  const {
    lease_until: _lease,
    next_poll_at: _next,
    ...rest
  } = row as T & { lease_until?: unknown; next_poll_at?: unknown };
  return rest;
}

export function mjView(row: MidjourneyRow, forwardBase: string | null) {
  return {
    ...withoutLease(row),
    id: Number(row.id),
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    quota: Number(row.quota),
    // The gateway's own keys (the client's notify hook) stay out of lists.
    properties: stripOwn(row.properties),
    // With MjForwardUrlEnabled the gateway serves the picture itself, so upstream hosts never reach clients.
    image_url: forwardBase && row.image_url ? `${forwardBase}/mj/image/${row.mj_id}` : row.image_url,
  };
}
function stripOwn(text: string): string {
  const v = parseJson(text, null);
  if (!v || typeof v !== 'object') return text;
  const { _switchyard: _own, ...rest } = v as Record<string, unknown>;
  return JSON.stringify(rest);
}

function stripOwnObject(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const { _switchyard: _own, ...rest } = v as Record<string, unknown>;
  return rest;
}

export type MjView = ReturnType<typeof mjView>;

/**
 * The task row as /api/task answers it: `properties` and `data` are JSON, not text; a finished video's
 * `result_url` is the gateway's content route under `resultBase` (given by the REST routes).
 */
export function taskView(row: TaskRow, resultBase?: string) {
  const resultUrl = resultBase === undefined ? undefined : videoResultUrl(row, resultBase);
  return {
    ...withoutLease(row),
    id: Number(row.id),
    quota: Number(row.quota),
    properties: stripOwnObject(parseJson(row.properties, {})),
    data: parseJson(row.data, null),
    ...(resultUrl ? { result_url: resultUrl } : {}),
  };
}
export type TaskView = ReturnType<typeof taskView>;

/** The console's task log row: new-api's view plus a video job's seconds and size (null for other tasks). */
export const consoleTaskView = (row: TaskRow) => ({ ...taskView(row), video: videoTaskSummary(row) });

export function parseJson(text: string, fallback: unknown): unknown {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // An unparsable column is shown as empty rather than failing the whole list.
    return fallback;
  }
}

export function createTasksService(infra: Pick<Infra, 'db'>, options: OptionsService) {
  /** The base URL for forwarded images, or null when images are not forwarded. */
  const forwardBase = () => {
    if (!options.get('MjForwardUrlEnabled')) return null;
    return options.get('ServerAddress').replace(/\/+$/, '');
  };
  return {
    forwardBase,
    /** Admin view: every user's drawings, channel filter allowed. */
    async listMj(q: MjListInput) {
      const fb = forwardBase();
      return (await listMidjourneys(infra.db, q)).map((r) => mjView(r, fb));
    },
    /** Self view: only the caller's drawings; the channel filter is an admin filter and is ignored. */
    async listMjSelf(userId: number, q: MjListInput) {
      const fb = forwardBase();
      return (await listMidjourneys(infra.db, { ...q, channel_id: undefined }, userId)).map((r) => mjView(r, fb));
    },
    /** 2026: one range of drawings with the total; `userId` limits them to the caller's (and drops the channel filter). */
    async pageMj(q: MjListInput, range: Range, userId?: number) {
      const filter = userId === undefined ? q : { ...q, channel_id: undefined };
      const fb = forwardBase();
      const [rows, total] = await Promise.all([
        listMidjourneys(infra.db, filter, userId, range),
        countMidjourneys(infra.db, filter, userId),
      ]);
      return { items: rows.map((r) => mjView(r, fb)), total };
    },
    /** 2026: one range of tasks with the total, as pageMj; `resultBase` see taskView. */
    async pageTasks(q: TaskListInput, range: Range, userId?: number, resultBase?: string) {
      const filter = userId === undefined ? q : { ...q, channel_id: undefined };
      const [rows, total] = await Promise.all([
        listTasks(infra.db, filter, userId, range),
        countTasks(infra.db, filter, userId),
      ]);
      return { items: rows.map((r) => taskView(r, resultBase)), total };
    },
    async listTasks(q: TaskListInput, resultBase?: string) {
      return (await listTasks(infra.db, q)).map((r) => taskView(r, resultBase));
    },
    async listTasksSelf(userId: number, q: TaskListInput, resultBase?: string) {
      return (await listTasks(infra.db, { ...q, channel_id: undefined }, userId)).map((r) => taskView(r, resultBase));
    },
    /** The console's task log: every user's tasks for admins (`userId` undefined), else the caller's. */
    async listTasksConsole(q: TaskListInput, userId?: number) {
      const filter = userId === undefined ? q : { ...q, channel_id: undefined };
      return (await listTasks(infra.db, filter, userId)).map(consoleTaskView);
    },
  };
}
