import { z } from 'zod';
import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { TaskRow } from '../../../db/types.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';
import { duePlatformTasks, updateTaskUnlessFailed } from '../../../domains/tasks/tasks.repo.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { createLeasedPollJob } from '../lifecycle.ts';
import { failAndRefundTask, taskPayerOf } from '../task-ledger.repo.ts';
import { fetchUpstreamSuno, SUNO_PLATFORM, type SunoOwn } from './suno.ts';

const upstreamTask = z
  .object({
    task_id: z.string(),
    status: z.string().optional(),
    fail_reason: z.string().nullish(),
    progress: z.string().nullish(),
    start_time: z.number().nullish(),
    finish_time: z.number().nullish(),
    data: z.unknown().optional(),
  })
  .passthrough();
type UpstreamTask = z.infer<typeof upstreamTask>;

const answer = z.object({ code: z.string(), data: z.array(z.unknown()).nullish() }).passthrough();

/**
 * The Suno poll job: the task lifecycle's leased poll (lifecycle.ts) over unfinished Suno tasks, so one
 * instance asks the upstream about a task at a time, with backoff; a channel's claimed tasks are asked
 * for together (/suno/fetch, up to 100 ids a call). FAILURE refunds once, to whoever
 * paid; a task older than TaskTimeoutMinutes is failed and refunded. A task whose channel is gone waits
 * for its next turn; the timeout ends it at last.
 */
export function createSunoPollJob(rt: RelayRuntime) {
  const { deps } = rt;
  return createLeasedPollJob(rt, {
    due: (now, limit) => duePlatformTasks(deps.db, SUNO_PLATFORM, now, limit),
    timeoutS: () => deps.services.options.get('TaskTimeoutMinutes') * 60,
    // One /suno/fetch per channel batch (up to 100 ids), not one call per task.
    pollMany: async (rows) => {
      const channelId = Number(rows[0].channel_id);
      const a = await fetchUpstreamSuno(
        rt,
        channelId,
        rows.map((r) => r.task_id),
      );
      if (!a) return;
      const parsed = answer.safeParse(a.json);
      if (a.status >= 400 || !parsed.success || parsed.data.code !== 'success') {
        deps.log.warn({ channelId, status: a.status }, 'suno poll answer refused');
        return;
      }
      const found = new Map<string, UpstreamTask>();
      for (const item of parsed.data.data ?? []) {
        const t = upstreamTask.safeParse(item);
        if (t.success) found.set(t.data.task_id, t.data);
      }
      for (const row of rows) {
        const t = found.get(row.task_id);
        if (t) await applyUpdate(rt, row, t);
      }
    },
    expire: (row, timeoutS) => {
      const now = nowSeconds();
      return failSuno(rt, row, serverText('task.timed_out', { minutes: Math.round(timeoutS / 60) }), {
        updated_at: now,
        finish_time: now,
      });
    },
  });
}

/** Fails a task and refunds it where it was paid (wallet or subscription pool, the token), once. */
function failSuno(rt: RelayRuntime, row: TaskRow, reason: string, changes: Record<string, string | number>) {
  const own = (parseJson(row.properties, {}) as { _switchyard?: SunoOwn })._switchyard ?? {};
  return failAndRefundTask(rt.deps.db, {
    table: 'tasks',
    id: Number(row.id),
    payer: taskPayerOf(row, own),
    quota: Number(row.quota),
    failReason: reason,
    changes,
    model: `suno_${row.action.toLowerCase()}`,
    refundOf: { code: 'log.task_refund_suno', taskId: row.task_id },
  });
}

async function applyUpdate(rt: RelayRuntime, row: TaskRow, t: UpstreamTask) {
  const now = nowSeconds();
  const status = t.status || row.status;
  const data = t.data === undefined ? row.data : JSON.stringify(t.data);
  const progress = t.progress ?? row.progress;
  if (status === row.status && progress === row.progress && data === row.data) return;
  const changes = {
    progress,
    data,
    updated_at: now,
    start_time: t.start_time || Number(row.start_time) || (status === 'IN_PROGRESS' ? now : 0),
    finish_time: t.finish_time || Number(row.finish_time) || (status === 'SUCCESS' || status === 'FAILURE' ? now : 0),
  };
  if (status === 'FAILURE') {
    await failSuno(rt, row, t.fail_reason || serverText('task.failed'), changes);
    return;
  }
  await updateTaskUnlessFailed(rt.deps.db, row.id, {
    ...changes,
    status,
    fail_reason: t.fail_reason ?? row.fail_reason,
  });
}
