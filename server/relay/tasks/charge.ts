import { nowSeconds } from '../../db/time.ts';
import type { NewLog } from '../../db/types.ts';
import type { Reservation } from '../../domains/billing/reserve.service.ts';
import type { Settlement } from '../../domains/billing/settle.service.ts';
import { messageLogFields } from '../../domains/logs/log-message.view.ts';
import type { ChannelConfig } from '../channel-config.ts';
import { refusal } from '../errors.ts';
import { noChannelFor } from '../model-choice.ts';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';
import { selectChannel } from '../select-channel.ts';

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

/** What the consume row says was submitted: "Midjourney IMAGINE，任务 ID <id>" (log.task_submitted). */
export interface SubmittedTask {
  platform: 'Midjourney' | 'Suno';
  action: string;
  /** The upstream's task id. */
  taskId: string;
}

/**
 * The consume row of an accepted Midjourney or Suno task, written with its charge and its task row
 * (lifecycle.ts chargeOnAccept): a fixed price per call, kept whole (nothing is settled later).
 */
export function taskSubmittedLog(
  p: RelayPrincipal,
  model: string,
  price: TaskPrice,
  channelId: number,
  meta: { ip: string; requestId: string; started: number },
  task: SubmittedTask,
): (s: Settlement) => NewLog {
  return (st) => ({
    user_id: p.user.id,
    created_at: nowSeconds(),
    type: 2,
    username: p.user.username,
    token_name: p.token?.name ?? '',
    token_id: p.token?.id ?? 0,
    model_name: model,
    quota: st.charged,
    use_time: Math.round((Date.now() - meta.started) / 1000),
    channel_id: channelId,
    group: p.group,
    ip: p.user.showIpInLogs ? meta.ip : '',
    request_id: meta.requestId,
    ...messageLogFields(
      { code: 'log.task_submitted', params: { platform: task.platform, action: task.action, task_id: task.taskId } },
      { other: { model_price: price.modelPrice, group_ratio: price.groupRatio, task: true } },
    ),
  });
}

/** Who pays a task, as its row keeps it for the refund (read back by task-ledger.repo.ts taskPayerOf). */
export const payerOwn = (p: RelayPrincipal, reservation: Reservation) => ({
  tokenId: p.token?.id ?? 0,
  unlimitedToken: p.token?.unlimited ?? true,
  subscriptionId: reservation.subscriptionId ?? 0,
});
