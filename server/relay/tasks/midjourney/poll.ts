import { z } from 'zod';
import { serverText } from '../../../../shared/server-messages.ts';
import type { MidjourneyRow } from '../../../db/types.ts';
import { postNotify } from '../../../domains/tasks/notify.client.ts';
import { dueMidjourneys, findMidjourneyById, updateMidjourneyUnlessFailed } from '../../../domains/tasks/tasks.repo.ts';
import type { RelayRuntime } from '../../runtime.ts';
import type { MjAction } from '../../../../shared/schemas/tasks.ts';
import { createLeasedPollJob } from '../lifecycle.ts';
import { failAndRefundTask, taskPayerOf } from '../task-ledger.repo.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { MJ_PRICE_KEY } from './actions.ts';
import { mjTaskDto, joinProperties, splitProperties } from './views.ts';

/** What a Midjourney-proxy task answer may carry; anything missing keeps the stored value. */
const upstreamTask = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    status: z.string().optional(),
    progress: z.string().optional(),
    imageUrl: z.string().nullish(),
    failReason: z.string().nullish(),
    promptEn: z.string().nullish(),
    description: z.string().nullish(),
    startTime: z.number().nullish(),
    finishTime: z.number().nullish(),
    buttons: z.array(z.unknown()).nullish(),
    properties: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
type UpstreamTask = z.infer<typeof upstreamTask>;

/**
 * The drawing poll job: the task lifecycle's leased poll (lifecycle.ts) over unfinished drawings, so
 * one instance asks the upstream about a drawing at a time, with backoff. A channel's claimed drawings
 * are asked for together (list-by-condition, up to 100 ids a call); the answer updates each row it
 * mentions, the others wait for their next turn. FAILURE refunds once, to whoever
 * paid; a drawing older than TaskTimeoutMinutes (lost upstream, or a modal never answered) is failed and
 * refunded; MjNotifyEnabled posts changed tasks to the client's hook. A drawing whose channel is gone
 * waits for its next turn; the timeout ends it at last.
 */
export function createMjPollJob(rt: RelayRuntime) {
  const { deps } = rt;
  return createLeasedPollJob<MidjourneyRow>(rt, {
    table: 'midjourneys',
    due: (now, limit) => dueMidjourneys(deps.db, now, limit),
    timeoutS: () => deps.services.options.get('TaskTimeoutMinutes') * 60,
    // Drawing times are milliseconds (the Midjourney-proxy protocol's).
    submittedAt: (row) => Math.floor(Number(row.submit_time) / 1000),
    // One list-by-condition per channel batch (up to 100 ids), not one call per drawing.
    pollMany: async (rows) => {
      const channel = rt.routing.channel(Number(rows[0].channel_id));
      if (!channel) return;
      const a = await callTaskUpstream(channel, 'mj', 'POST', '/mj/task/list-by-condition', {
        ids: rows.map((r) => r.mj_id),
      });
      if (a.status >= 400 || !Array.isArray(a.json)) {
        deps.log.warn({ channelId: channel.id, status: a.status }, 'midjourney poll answer refused');
        return;
      }
      const found = new Map<string, UpstreamTask>();
      for (const item of a.json) {
        const t = upstreamTask.safeParse(item);
        if (t.success) found.set(t.data.id, t.data);
      }
      for (const row of rows) {
        const t = found.get(row.mj_id);
        if (t) await applyUpdate(rt, row, t);
      }
    },
    expire: async (row, timeoutS) => {
      const reason = serverText('task.timed_out', { minutes: Math.round(timeoutS / 60) });
      if (await failDrawing(rt, row, reason, { finish_time: Date.now() })) notify(rt, row);
    },
  });
}

/** Fails a drawing and refunds it where it was paid, once; false when another got there first. */
async function failDrawing(
  rt: RelayRuntime,
  row: MidjourneyRow,
  reason: string,
  changes: Record<string, string | number>,
) {
  const { own } = splitProperties(row.properties);
  const log = await failAndRefundTask(rt.deps.db, {
    table: 'midjourneys',
    id: Number(row.id),
    payer: taskPayerOf(row, own),
    quota: Number(row.quota),
    failReason: reason,
    changes,
    model: MJ_PRICE_KEY[row.action as MjAction] ?? row.action,
    refundOf: { code: 'log.task_refund_midjourney', taskId: row.mj_id },
  });
  return log !== null;
}

/** MjNotifyEnabled: the client's hook gets the drawing as it now stands. */
async function notify(rt: RelayRuntime, row: MidjourneyRow) {
  const { deps } = rt;
  const { own } = splitProperties(row.properties);
  if (!own.notifyHook || !deps.services.options.get('MjNotifyEnabled')) return;
  const fresh = await findMidjourneyById(deps.db, row.id);
  if (fresh) postNotify(deps, own.notifyHook, mjTaskDto(fresh, deps.services.tasks.forwardBase()));
}

async function applyUpdate(rt: RelayRuntime, row: MidjourneyRow, t: UpstreamTask) {
  const { deps } = rt;
  const status = t.status || row.status;
  const { upstream, own } = splitProperties(row.properties);
  const changes = {
    progress: t.progress ?? row.progress,
    image_url: t.imageUrl ?? row.image_url,
    prompt_en: t.promptEn ?? row.prompt_en,
    description: t.description ?? row.description,
    start_time: t.startTime || Number(row.start_time) || (status === 'IN_PROGRESS' ? Date.now() : 0),
    // Upstreams that omit times still give the log a duration: the first poll that sees the state stamps it.
    finish_time: t.finishTime || Number(row.finish_time) || (status === 'SUCCESS' ? Date.now() : 0),
    buttons: t.buttons ? JSON.stringify(t.buttons) : row.buttons,
    properties: joinProperties({ ...upstream, ...(t.properties ?? {}) }, own),
  };
  const unchanged =
    status === row.status &&
    changes.progress === row.progress &&
    changes.image_url === row.image_url &&
    changes.buttons === row.buttons;
  if (unchanged) return;
  if (status === 'FAILURE') {
    await failDrawing(rt, row, t.failReason || serverText('task.failed'), {
      ...changes,
      finish_time: changes.finish_time || Date.now(),
    });
  } else {
    await updateMidjourneyUnlessFailed(deps.db, row.id, {
      ...changes,
      status,
      fail_reason: t.failReason ?? row.fail_reason,
    });
  }
  await notify(rt, row);
}
