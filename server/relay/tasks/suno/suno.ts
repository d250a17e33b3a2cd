import { z } from 'zod';
import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { TaskRow } from '../../../db/types.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';
import { insertTask, tasksByUserAndIds } from '../../../domains/tasks/tasks.repo.ts';
import { refusal } from '../../errors.ts';
import type { RelayPrincipal } from '../../principal.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { checkModel } from '../../token-auth.ts';
import { payerOwn, pickTaskChannel, taskPrice, taskSubmittedLog } from '../charge.ts';
import { chargeOnAccept } from '../lifecycle.ts';
import { callTaskUpstream } from '../task-upstream.ts';

export const SUNO_CHANNEL_TYPES = [36] as const;
export const SUNO_PLATFORM = 'suno';

export const sunoBodies = {
  music: z
    .object({
      prompt: z.string().max(10_000).optional(),
      gpt_description_prompt: z.string().max(10_000).optional(),
      mv: z.string().max(100).optional(),
      title: z.string().max(500).optional(),
      tags: z.string().max(1000).optional(),
      make_instrumental: z.boolean().optional(),
      continue_at: z.number().optional(),
      continue_clip_id: z.string().max(200).optional(),
    })
    .passthrough()
    .refine((b) => Boolean(b.prompt || b.gpt_description_prompt), {
      message: serverText('relay.suno_prompt_required'),
    }),
  lyrics: z.object({ prompt: z.string().min(1).max(10_000) }).passthrough(),
  fetch: z.object({ ids: z.array(z.string().max(200)).max(100).default([]) }).passthrough(),
  id: z.object({ id: z.string().min(1).max(200) }),
};

export type SunoAction = 'music' | 'lyrics';

interface SunoAnswer {
  code?: string;
  message?: string;
  data?: unknown;
}

/** A stored task in the Suno API's task shape (the fetch answers). */
export function sunoTaskDto(row: TaskRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: parseJson(row.data, null),
  };
}

/** The upstream took the task: a success code with its id. */
const accepted = (a: { status: number; json: unknown }) => {
  const j = a.json as SunoAnswer | null;
  return a.status < 400 && j?.code === 'success' && typeof j.data === 'string' && j.data !== '';
};

/** The part of `properties` the answers never show: who paid, for a FAILURE refund (a subscription pool too). */
export interface SunoOwn {
  tokenId?: number;
  unlimitedToken?: boolean;
  subscriptionId?: number;
}

/**
 * Submits a song or lyrics: price suno_<action>, channel type 36, reservation (relay.md §10). An
 * accepted task's charge, consume row and task row are written together (lifecycle.ts chargeOnAccept);
 * a refused one is given back and its answer passed on.
 */
export async function submitSuno(
  rt: RelayRuntime,
  p: RelayPrincipal,
  action: SunoAction,
  body: Record<string, unknown>,
  meta: { ip: string; requestId: string },
) {
  const model = `suno_${action}`;
  const channel = pickTaskChannel(rt, p, model, SUNO_CHANNEL_TYPES);
  checkModel(p.token, model);
  const price = taskPrice(rt, model, p.group);
  const now = nowSeconds();
  const started = Date.now();
  const input = String(body.prompt || body.gpt_description_prompt || '');
  const answer = await chargeOnAccept(
    rt,
    p,
    price.quota,
    () => callTaskUpstream(channel, 'bearer', 'POST', `/suno/submit/${action}`, body),
    (a, reservation) => {
      const taskId = String((a.json as SunoAnswer).data);
      const own: SunoOwn = payerOwn(p, reservation);
      return {
        channelId: channel.id,
        log: taskSubmittedLog(
          p,
          model,
          price,
          channel.id,
          { ...meta, started },
          {
            platform: 'Suno',
            action: action.toUpperCase(),
            taskId,
          },
        ),
        row: async (trx) =>
          void (await insertTask(trx, {
            created_at: now,
            updated_at: now,
            task_id: taskId,
            platform: SUNO_PLATFORM,
            user_id: p.user.id,
            channel_id: channel.id,
            quota: price.quota,
            action: action.toUpperCase(),
            status: 'NOT_START',
            submit_time: now,
            progress: '0%',
            // `_switchyard` (who paid, for a FAILURE refund) is stripped from every answer.
            properties: JSON.stringify({ input, _switchyard: own }),
          })),
      };
    },
    accepted,
  );
  const j = (answer.json ?? {}) as SunoAnswer;
  if (!accepted(answer)) return { status: answer.status, body: j };
  return { status: 200, body: { code: 'success', message: '', data: String(j.data) } };
}

export async function fetchSuno(rt: RelayRuntime, p: RelayPrincipal, ids: string[]) {
  const rows = await tasksByUserAndIds(rt.deps.db, p.user.id, ids);
  return { code: 'success', message: '', data: rows.filter((r) => r.platform === SUNO_PLATFORM).map(sunoTaskDto) };
}

export async function fetchOneSuno(rt: RelayRuntime, p: RelayPrincipal, id: string) {
  const [row] = await tasksByUserAndIds(rt.deps.db, p.user.id, [id]);
  if (!row || row.platform !== SUNO_PLATFORM) throw refusal(404, 'Task not found', '任务不存在', 'task_not_exist');
  return { code: 'success', message: '', data: sunoTaskDto(row) };
}

/** Polled upstream status, for the poller. */
export function fetchUpstreamSuno(rt: RelayRuntime, channelId: number, ids: string[]) {
  const channel = rt.routing.channel(channelId);
  if (!channel) return null;
  return callTaskUpstream(channel, 'bearer', 'POST', '/suno/fetch', { ids });
}
