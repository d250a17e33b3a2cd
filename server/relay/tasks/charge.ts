import { nowSeconds } from '../../db/time.ts';
import { isAppError } from '../../errors.ts';
import type { Reservation } from '../../domains/billing/reserve.service.ts';
import { messageLogFields } from '../../domains/logs/log-message.view.ts';
import type { ChannelConfig } from '../channel-config.ts';
import { quotaShortfall, refusal, relayErrorOfApp } from '../errors.ts';
import { noChannelFor } from '../model-choice.ts';
import { payerOf, type RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';
import { selectChannel } from '../select-channel.ts';
import { checkModel } from '../token-auth.ts';

/**
 * USD per call when ModelPrice has no entry for a task action (new-api's defaults),
 * so a fresh install can bill every Midjourney and Suno action.
 */
export const DEFAULT_TASK_PRICES: Record<string, number> = {
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  mj_uploads: 0.05,
  swap_face: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};

export interface TaskPrice {
  quota: number;
  modelPrice: number;
  groupRatio: number;
}

/** Fixed per-call price: ModelPrice (or the default) x QuotaPerUnit x group ratio, an integer. */
export function taskPrice(rt: RelayRuntime, model: string, group: string): TaskPrice {
  const opt = rt.deps.services.options.get;
  const modelPrice = opt('ModelPrice')[model] ?? DEFAULT_TASK_PRICES[model];
  if (modelPrice === undefined)
    throw refusal(403, `No price is set for model ${model}`, `模型 ${model} 的价格未设置`, 'model_price_not_set');
  const groupRatio = opt('GroupRatio')[group] ?? 1;
  return { quota: Math.round(modelPrice * opt('QuotaPerUnit') * groupRatio), modelPrice, groupRatio };
}

/**
 * The channel for a new task: a pinned one (sk-KEY-CHANNELID), the channel of the
 * task a follow-up acts on, else the normal (group, model) choice restricted to the
 * platform's channel types.
 */
export function pickTaskChannel(
  rt: RelayRuntime,
  p: RelayPrincipal,
  model: string,
  types: readonly number[],
  originChannelId?: number,
): ChannelConfig {
  const fixed = p.pinnedChannelId ?? originChannelId;
  if (fixed !== undefined && fixed !== null) {
    const ch = rt.routing.channel(fixed);
    if (!ch || !types.includes(ch.type))
      throw refusal(503, `Channel #${fixed} is unavailable`, `渠道 #${fixed} 不可用`, 'channel_unavailable');
    return ch;
  }
  const candidates = rt.routing.candidates(p.group, model).filter((c) => types.includes(c.channel.type));
  const picked = selectChannel(candidates, 0, new Set());
  if (!picked) throw noChannelFor(rt, p.group, model);
  return picked.channel;
}

export interface Charged {
  quota: number;
  channelId: number;
}

/** What the consume log says was submitted: "Midjourney IMAGINE，任务 ID <id>" (log.task_submitted). */
export interface SubmittedTask<T> {
  platform: 'Midjourney' | 'Suno';
  action: string;
  /** The upstream's task id, read from its answer. */
  id: (answer: T) => string;
}

/**
 * Reserves the task's price, lets `call` submit upstream, then either charges it
 * (accepted) or gives it all back (refused, or the call threw). The consume log
 * is queued on the shared log writer like any relayed request's.
 */
export async function chargeTask<T>(
  rt: RelayRuntime,
  p: RelayPrincipal,
  model: string,
  channel: ChannelConfig,
  meta: { ip: string; requestId: string; task: SubmittedTask<T> },
  call: () => Promise<{ accepted: boolean; answer: T }>,
): Promise<{ accepted: boolean; answer: T; charged: Charged }> {
  checkModel(p.token, model);
  const price = taskPrice(rt, model, p.group);
  const { billing } = rt.deps.services;
  const started = Date.now();
  let reservation: Reservation;
  try {
    reservation = await billing.reserve(payerOf(p), price.quota);
  } catch (err) {
    if (isAppError(err))
      throw (
        quotaShortfall(err, rt.deps.services.options.get) ??
        relayErrorOfApp(err, 403, err.detail ?? 'insufficient_quota')
      );
    throw err;
  }
  let result: { accepted: boolean; answer: T };
  try {
    result = await call();
  } catch (err) {
    await billing.refund(reservation);
    throw err;
  }
  if (!result.accepted) {
    await billing.refund(reservation);
    return { ...result, charged: { quota: 0, channelId: channel.id } };
  }
  const s = await billing.settle(reservation, price.quota, channel.id, (st) => ({
    user_id: p.user.id,
    created_at: nowSeconds(),
    type: 2,
    username: p.user.username,
    token_name: p.token?.name ?? '',
    token_id: p.token?.id ?? 0,
    model_name: model,
    quota: st.charged,
    use_time: Math.round((Date.now() - started) / 1000),
    channel_id: channel.id,
    group: p.group,
    ip: p.user.showIpInLogs ? meta.ip : '',
    request_id: meta.requestId,
    ...messageLogFields(
      {
        code: 'log.task_submitted',
        params: { platform: meta.task.platform, action: meta.task.action, task_id: meta.task.id(result.answer) },
      },
      { other: { model_price: price.modelPrice, group_ratio: price.groupRatio, task: true } },
    ),
  }));
  return { ...result, charged: { quota: s.charged, channelId: channel.id } };
}
