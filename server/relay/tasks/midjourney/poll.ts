import { z } from 'zod';
import { serverText } from '../../../../shared/server-messages.ts';
import type { MidjourneyRow } from '../../../db/types.ts';
import { postNotify } from '../../../domains/tasks/notify.client.ts';
import { failAndRefund } from '../../../domains/tasks/task-refund.repo.ts';
import {
  findMidjourneyById,
  unfinishedMidjourneys,
  updateMidjourneyUnlessFailed,
} from '../../../domains/tasks/tasks.repo.ts';
import type { RelayRuntime } from '../../runtime.ts';
import type { MjAction } from '../../../../shared/schemas/tasks.ts';
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

const IDS_PER_CALL = 100;

/**
 * One poll of every unfinished drawing: per channel, the ids go to the upstream's
 * list-by-condition in batches; each answer updates its row. FAILURE refunds once
 * (failAndRefund); MjNotifyEnabled posts changed tasks to the client's hook.
 */
export function createMjPollJob(rt: RelayRuntime) {
  const { deps } = rt;
  return async () => {
    const rows = await unfinishedMidjourneys(deps.db);
    const byChannel = new Map<number, MidjourneyRow[]>();
    for (const r of rows) {
      const list = byChannel.get(Number(r.channel_id)) ?? [];
      list.push(r);
      byChannel.set(Number(r.channel_id), list);
    }
    for (const [channelId, list] of byChannel) {
      // A disabled or deleted channel cannot be asked; its tasks wait until it is back.
      const channel = rt.routing.channel(channelId);
      if (!channel) continue;
      for (let i = 0; i < list.length; i += IDS_PER_CALL) {
        const batch = list.slice(i, i + IDS_PER_CALL);
        const a = await callTaskUpstream(channel, 'mj', 'POST', '/mj/task/list-by-condition', {
          ids: batch.map((r) => r.mj_id),
        });
        if (a.status >= 400 || !Array.isArray(a.json)) {
          deps.log.warn({ channelId, status: a.status }, 'midjourney poll answer refused');
          continue;
        }
        const found = new Map<string, UpstreamTask>();
        for (const item of a.json) {
          const t = upstreamTask.safeParse(item);
          if (t.success) found.set(t.data.id, t.data);
        }
        for (const row of batch) {
          const t = found.get(row.mj_id);
          if (t) await applyUpdate(rt, row, t);
        }
      }
    }
  };
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
    const log = await failAndRefund(deps.db, {
      table: 'midjourneys',
      id: Number(row.id),
      userId: Number(row.user_id),
      channelId: Number(row.channel_id),
      quota: Number(row.quota),
      token: own.tokenId ? { id: own.tokenId, unlimited: own.unlimitedToken !== false } : undefined,
      failReason: t.failReason || serverText('task.failed'),
      changes: { ...changes, finish_time: changes.finish_time || Date.now() },
      model: MJ_PRICE_KEY[row.action as MjAction] ?? row.action,
      refundOf: { code: 'log.task_refund_midjourney', taskId: row.mj_id },
    });
    if (log) deps.services.logWriter.write(log);
  } else {
    await updateMidjourneyUnlessFailed(deps.db, row.id, {
      ...changes,
      status,
      fail_reason: t.failReason ?? row.fail_reason,
    });
  }
  if (own.notifyHook && deps.services.options.get('MjNotifyEnabled')) {
    const fresh = await findMidjourneyById(deps.db, row.id);
    if (fresh) postNotify(deps, own.notifyHook, mjTaskDto(fresh, deps.services.tasks.forwardBase()));
  }
}
