import type { MjAction } from '../../../../shared/schemas/tasks.ts';
import type { Db } from '../../../db/types.ts';
import type { Reservation } from '../../../domains/billing/reserve.service.ts';
import { insertMidjourney, mjByMjId } from '../../../domains/tasks/tasks.repo.ts';
import { refusal } from '../../errors.ts';
import type { RelayPrincipal } from '../../principal.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { checkModel } from '../../token-auth.ts';
import { payerOwn, pickTaskChannel, taskPrice, taskSubmittedLog } from '../charge.ts';
import { chargeOnAccept } from '../lifecycle.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { MJ_CHANNEL_TYPES, MJ_PRICE_KEY } from './actions.ts';
import { joinProperties } from './views.ts';

/** Submit codes that mean the upstream took the task (charged): submitted, waiting (modal), duplicate. */
export const ACCEPTED_CODES = [1, 21, 22];

export interface MjSubmit {
  action: MjAction;
  /** The upstream path without the mode prefix, e.g. `/mj/submit/imagine`. */
  path: string;
  body: Record<string, unknown>;
  /** The task a follow-up (change, action, modal) acts on. */
  originMjId?: string;
  /** change/action require the original task to have succeeded when MjActionCheckSuccessEnabled. */
  needsSuccess?: boolean;
}

export interface MjCallMeta {
  mode: string | null;
  ip: string;
  requestId: string;
}

interface MjAnswer {
  code?: number;
  description?: string;
  result?: unknown;
  properties?: Record<string, unknown>;
}

const MODE_FLAGS = /\s*--(fast|relax|turbo)\b/gi;

/** The client's body as the upstream should see it (gateway-only keys removed, options applied). */
function upstreamBody(rt: RelayRuntime, body: Record<string, unknown>): Record<string, unknown> {
  const opt = rt.deps.services.options.get;
  // The gateway calls the client's hook itself (from polled state), so the upstream never gets it.
  const { notifyHook: _hook, ...out } = body;
  if (!opt('MjAccountFilterEnabled')) delete out.accountFilter;
  if (opt('MjModeClearEnabled') && typeof out.prompt === 'string') out.prompt = out.prompt.replace(MODE_FLAGS, '');
  return out;
}

/**
 * Submits a drawing action: price, channel, reservation, upstream call (relay.md §10). An accepted
 * task's charge, consume row and task row are written together (lifecycle.ts chargeOnAccept); a
 * refused one is given back and its answer passed on as the upstream gave it.
 */
export async function submitMj(rt: RelayRuntime, p: RelayPrincipal, s: MjSubmit, meta: MjCallMeta) {
  const db = rt.deps.db;
  let originChannel: number | undefined;
  if (s.originMjId !== undefined) {
    const origin = await mjByMjId(db, s.originMjId);
    if (!origin || Number(origin.user_id) !== p.user.id)
      throw refusal(404, 'Task not found', '任务不存在', 'task_not_found');
    if (s.needsSuccess && rt.deps.services.options.get('MjActionCheckSuccessEnabled') && origin.status !== 'SUCCESS')
      throw refusal(
        400,
        'The original task has not succeeded; this action is not possible yet',
        '原任务尚未成功，不能执行此操作',
        'task_status_not_success',
      );
    originChannel = Number(origin.channel_id);
  }
  const model = MJ_PRICE_KEY[s.action];
  const channel = pickTaskChannel(rt, p, model, MJ_CHANNEL_TYPES, originChannel);
  checkModel(p.token, model);
  const price = taskPrice(rt, model, p.group);
  const path = meta.mode ? `/mj-${meta.mode}${s.path}` : s.path;
  const submitTime = Date.now();
  const answer = await chargeOnAccept(
    rt,
    p,
    price.quota,
    () => callTaskUpstream(channel, 'mj', 'POST', path, upstreamBody(rt, s.body)),
    (a, reservation) => {
      const json = (a.json ?? {}) as MjAnswer;
      return {
        channelId: channel.id,
        log: taskSubmittedLog(
          p,
          model,
          price,
          channel.id,
          { ...meta, started: submitTime },
          {
            platform: 'Midjourney',
            action: s.action,
            taskId: resultId(json),
          },
        ),
        row: (trx) => storeTask(trx, p, reservation, s, json, channel.id, price.quota, submitTime),
      };
    },
    (a) => {
      const code = (a.json as MjAnswer | null)?.code;
      return a.status < 400 && typeof code === 'number' && ACCEPTED_CODES.includes(code);
    },
  );
  return { status: answer.status, body: (answer.json ?? {}) as MjAnswer };
}

const resultId = (a: MjAnswer) =>
  typeof a.result === 'string' || typeof a.result === 'number' ? String(a.result) : '';

async function storeTask(
  trx: Db,
  p: RelayPrincipal,
  reservation: Reservation,
  s: MjSubmit,
  a: MjAnswer,
  channelId: number,
  quota: number,
  submitTime: number,
) {
  const mjId = resultId(a);
  const hook = typeof s.body.notifyHook === 'string' ? s.body.notifyHook : undefined;
  // UPLOAD answers with image links and creates no task upstream: it is finished at once.
  const done = s.action === 'UPLOAD' || mjId === '';
  await insertMidjourney(trx, {
    code: a.code ?? 0,
    user_id: p.user.id,
    action: s.action,
    mj_id: mjId,
    prompt: typeof s.body.prompt === 'string' ? s.body.prompt : '',
    description: a.description ?? '',
    state: typeof s.body.state === 'string' ? s.body.state : '',
    submit_time: submitTime,
    finish_time: done ? Date.now() : 0,
    status: done ? 'SUCCESS' : a.code === 21 ? 'MODAL' : 'SUBMITTED',
    progress: done ? '100%' : '0%',
    channel_id: channelId,
    quota,
    // Who paid (a subscription pool too), so a failure is refunded where it was paid.
    properties: joinProperties(a.properties ?? {}, {
      ...(hook ? { notifyHook: hook } : {}),
      ...payerOwn(p, reservation),
    }),
  });
}
