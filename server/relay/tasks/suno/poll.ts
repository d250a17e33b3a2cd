import { z } from 'zod';
import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { TaskRow } from '../../../db/types.ts';
import { failAndRefund } from '../../../domains/tasks/task-refund.repo.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';
import { unfinishedTasks, updateTaskUnlessFailed } from '../../../domains/tasks/tasks.repo.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { fetchUpstreamSuno, SUNO_PLATFORM } from './suno.ts';

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

/** One poll of unfinished Suno tasks, per channel; FAILURE refunds exactly once. */
export function createSunoPollJob(rt: RelayRuntime) {
  const { deps } = rt;
  return async () => {
    const rows = await unfinishedTasks(deps.db, SUNO_PLATFORM);
    const byChannel = new Map<number, TaskRow[]>();
    for (const r of rows) byChannel.set(Number(r.channel_id), [...(byChannel.get(Number(r.channel_id)) ?? []), r]);
    for (const [channelId, list] of byChannel) {
      for (let i = 0; i < list.length; i += 100) {
        const batch = list.slice(i, i + 100);
        const a = await fetchUpstreamSuno(
          rt,
          channelId,
          batch.map((r) => r.task_id),
        );
        // A disabled channel cannot be asked; its tasks wait until it is back.
        if (!a) break;
        const parsed = answer.safeParse(a.json);
        if (a.status >= 400 || !parsed.success || parsed.data.code !== 'success') {
          deps.log.warn({ channelId, status: a.status }, 'suno poll answer refused');
          continue;
        }
        const found = new Map<string, UpstreamTask>();
        for (const item of parsed.data.data ?? []) {
          const t = upstreamTask.safeParse(item);
          if (t.success) found.set(t.data.task_id, t.data);
        }
        for (const row of batch) {
          const t = found.get(row.task_id);
          if (t) await applyUpdate(rt, row, t);
        }
      }
    }
  };
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
    const log = await failAndRefund(rt.deps.db, {
      table: 'tasks',
      id: Number(row.id),
      userId: Number(row.user_id),
      channelId: Number(row.channel_id),
      quota: Number(row.quota),
      token: payingToken(row.properties),
      failReason: t.fail_reason || serverText('task.failed'),
      changes,
      model: `suno_${row.action.toLowerCase()}`,
      refundOf: { code: 'log.task_refund_suno', taskId: row.task_id },
    });
    if (log) rt.deps.services.logWriter.write(log);
    return;
  }
  await updateTaskUnlessFailed(rt.deps.db, row.id, {
    ...changes,
    status,
    fail_reason: t.fail_reason ?? row.fail_reason,
  });
}

/** The token stored at submit (properties._switchyard), if any. */
function payingToken(properties: string): { id: number; unlimited: boolean } | undefined {
  const own = (parseJson(properties, {}) as { _switchyard?: { tokenId?: number; unlimitedToken?: boolean } })
    ._switchyard;
  return own?.tokenId ? { id: own.tokenId, unlimited: own.unlimitedToken !== false } : undefined;
}
