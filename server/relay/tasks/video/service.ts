import { nowSeconds } from '../../../db/time.ts';
import type { TaskRow } from '../../../db/types.ts';
import { messageLogFields } from '../../../domains/logs/log-message.view.ts';
import { insertTask } from '../../../domains/tasks/tasks.repo.ts';
import { type ChannelConfig, pickKey, upstreamModelFor } from '../../channel-config.ts';
import { refusal } from '../../errors.ts';
import type { RelayPrincipal } from '../../principal.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { checkModel } from '../../token-auth.ts';
import { payerOwn, pickTaskChannel } from '../charge.ts';
import { chargeOnAccept } from '../lifecycle.ts';
import { videoAdapterFor, videoChannelTypes } from './adapters.ts';
import { checkRelayLimits } from '../../relay-limits.ts';
import { frameMultiplier, reservedFrame, type VideoFrame, videoPrice } from './price.ts';
import {
  isFinal,
  listOwnVideos,
  markVideoDeleted,
  newVideoId,
  ownVideo,
  partsOf,
  propertiesOf,
  settleVideo,
  statusOf,
  updateRunning,
  type VideoOwn,
  type VideoPublic,
  videoById,
  videoView,
} from './video-tasks.repo.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoDoor,
  VideoFile,
  VideoProgress,
  VideoRequest,
  VideoService,
  VideoTaskView,
  VideoVariant,
} from './types.ts';

/** A reader sees progress within seconds: a row older than this is refreshed from the upstream on read. */
export const STALE_AFTER_S = 3;

/** The service plus what the poller needs: one upstream poll of a stored job (settles when final). */
export interface VideoCore extends VideoService {
  refresh(row: TaskRow): Promise<TaskRow>;
  /** Stores a progress report; a final one settles or refunds (once). */
  apply(row: TaskRow, progress: VideoProgress): Promise<TaskRow>;
}

const services = new WeakMap<RelayRuntime, VideoCore>();

/** The one video service of a runtime (every door calls it). */
export const videoServiceOf = (rt: RelayRuntime): VideoService => videoCoreOf(rt);

export function videoCoreOf(rt: RelayRuntime): VideoCore {
  let s = services.get(rt);
  if (!s) services.set(rt, (s = createVideoService(rt)));
  return s;
}

const notFound = () => refusal(404, 'Video task not found', '视频任务不存在', 'task_not_exist');

/** What the upstream model cannot take is refused before any money moves (400, saying why). */
export function checkCapabilities(caps: VideoCapabilities, req: VideoRequest, upstreamModel: string): void {
  const no = (en: string, zh: string) => refusal(400, en, zh, 'invalid_request');
  if (req.seconds !== undefined && caps.seconds.length > 0 && !caps.seconds.includes(req.seconds))
    throw no(
      `Model ${upstreamModel} makes videos of ${caps.seconds.join(', ')} seconds, not ${req.seconds}`,
      `模型 ${upstreamModel} 只能生成 ${caps.seconds.join('、')} 秒的视频，不支持 ${req.seconds} 秒`,
    );
  if (req.size && caps.sizes && caps.sizes.length > 0 && !caps.sizes.includes(req.size))
    throw no(
      `Model ${upstreamModel} takes the sizes ${caps.sizes.join(', ')}, not ${req.size}`,
      `模型 ${upstreamModel} 只支持尺寸 ${caps.sizes.join('、')}，不支持 ${req.size}`,
    );
  if (req.resolution && caps.resolutions && caps.resolutions.length > 0 && !caps.resolutions.includes(req.resolution))
    throw no(
      `Model ${upstreamModel} takes the resolutions ${caps.resolutions.join(', ')}, not ${req.resolution}`,
      `模型 ${upstreamModel} 只支持分辨率 ${caps.resolutions.join('、')}，不支持 ${req.resolution}`,
    );
  if (
    req.aspectRatio &&
    caps.aspectRatios &&
    caps.aspectRatios.length > 0 &&
    !caps.aspectRatios.includes(req.aspectRatio)
  )
    throw no(
      `Model ${upstreamModel} takes the aspect ratios ${caps.aspectRatios.join(', ')}, not ${req.aspectRatio}`,
      `模型 ${upstreamModel} 只支持宽高比 ${caps.aspectRatios.join('、')}，不支持 ${req.aspectRatio}`,
    );
  if (req.firstFrame && !caps.firstFrame)
    throw no(
      `Model ${upstreamModel} takes no input image (first frame)`,
      `模型 ${upstreamModel} 不支持输入图片（首帧）`,
    );
  if (req.lastFrame && !caps.lastFrame)
    throw no(`Model ${upstreamModel} takes no last frame`, `模型 ${upstreamModel} 不支持尾帧`);
}

/**
 * The price of what was produced, at the terms the job was sold on (model price, unit, group ratio
 * and quota per unit stored at submit: an operator's later price change does not reprice a running job).
 * The frame is what the upstream reports, else the one the job was reserved on.
 */
export function finalVideoQuota(price: VideoOwn['price'], produced: VideoFrame & { seconds: number }): number {
  const multiplier = produced.size || produced.resolution ? frameMultiplier(price, produced) : price.sizeMultiplier;
  const perJob = price.modelPrice * multiplier * (price.unit === 'job' ? 1 : produced.seconds);
  return Math.round(perJob * price.groupRatio * price.quotaPerUnit);
}

/** new-api's action words for a video job. */
function actionOf(req: VideoRequest, remix: boolean): string {
  if (remix) return 'remixGenerate';
  if (req.lastFrame) return 'firstTailGenerate';
  if (req.firstFrame) return 'generate';
  return 'textGenerate';
}

interface Resolved {
  channel: ChannelConfig;
  adapter: VideoAdapter;
  call: VideoCall;
}

export function createVideoService(rt: RelayRuntime): VideoCore {
  const { deps } = rt;
  const opt = deps.services.options.get;

  function resolve(channel: ChannelConfig, model: string, upstreamModel?: string): Resolved {
    const adapter = videoAdapterFor(channel.type);
    if (!adapter)
      throw refusal(503, `Channel #${channel.id} is unavailable`, `渠道 #${channel.id} 不可用`, 'channel_unavailable');
    return {
      channel,
      adapter,
      call: {
        channel,
        key: pickKey(channel),
        upstreamModel: upstreamModel ?? upstreamModelFor(channel, model).name,
        options: opt,
      },
    };
  }

  /** The channel a stored job runs on (polls and downloads go to the same one). */
  function resolveRow(row: TaskRow): Resolved | null {
    const channel = rt.routing.channel(Number(row.channel_id));
    if (!channel) return null;
    const { pub, own } = partsOf(row);
    return resolve(channel, pub.origin_model_name, own.upstreamModel);
  }

  /**
   * Reserve -> submit upstream -> keep the reserved amount as the charge (consume row "reserved X")
   * and store the job; a refusal or a throw gives the whole reservation back.
   */
  async function start(
    p: RelayPrincipal,
    req: VideoRequest,
    meta: { ip: string; requestId: string; door: VideoDoor },
    r: Resolved,
    send: () => Promise<{ upstreamId: string; progress?: VideoProgress }>,
    remixedFromId?: string,
  ): Promise<VideoTaskView> {
    const caps = r.adapter.capabilities(r.call.upstreamModel);
    const seconds = req.seconds ?? caps.seconds[0] ?? 0;
    const sizeMultiplier = frameMultiplier(caps, reservedFrame(caps, req));
    const price = videoPrice(opt, req.model, p.group, { seconds, sizeMultiplier });
    const started = Date.now();
    const id = newVideoId();
    const pub: VideoPublic = {
      input: req.prompt,
      origin_model_name: req.model,
      seconds,
      ...(req.size ? { size: req.size } : {}),
      ...(req.resolution ? { resolution: req.resolution } : {}),
      ...(req.aspectRatio ? { aspect_ratio: req.aspectRatio } : {}),
    };
    const { quota: _q, ...priceParts } = price;
    const sent = await chargeOnAccept(rt, p, price.quota, send, (sent, reservation) => {
      const now = nowSeconds();
      const own: VideoOwn = {
        video: true,
        door: meta.door,
        upstreamId: sent.upstreamId,
        upstreamModel: r.call.upstreamModel,
        ...payerOwn(p, reservation),
        group: p.group,
        price: {
          ...priceParts,
          reserved: price.quota,
          quotaPerUnit: opt('QuotaPerUnit'),
          ...(caps.samePriceAnySize ? { samePriceAnySize: true } : {}),
        },
        content: sent.progress?.content,
        variants: [...caps.variants],
        ...(remixedFromId ? { remixedFromId } : {}),
      };
      const state = sent.progress?.state === 'in_progress' ? 'in_progress' : 'queued';
      const task = {
        created_at: now,
        updated_at: now,
        task_id: id,
        platform: String(r.channel.type),
        user_id: p.user.id,
        channel_id: r.channel.id,
        quota: price.quota,
        action: actionOf(req, remixedFromId !== undefined),
        status: sent.progress ? statusOf(state) : 'SUBMITTED',
        submit_time: now,
        start_time: state === 'in_progress' ? now : 0,
        progress: `${Math.min(99, Math.round(sent.progress?.progress ?? 0))}%`,
        properties: propertiesOf(pub, own),
      };
      return {
        channelId: r.channel.id,
        log: (st) => ({
          user_id: p.user.id,
          created_at: now,
          type: 2,
          username: p.user.username,
          token_name: p.token?.name ?? '',
          token_id: p.token?.id ?? 0,
          model_name: req.model,
          quota: st.charged,
          use_time: Math.round((Date.now() - started) / 1000),
          channel_id: r.channel.id,
          group: p.group,
          ip: p.user.showIpInLogs ? meta.ip : '',
          request_id: meta.requestId,
          ...messageLogFields(
            {
              code: 'log.video_reserved',
              params: { model: req.model, task_id: id, seconds, amount: { quota: price.quota } },
            },
            {
              other: {
                model_price: price.modelPrice,
                group_ratio: price.groupRatio,
                task: true,
                video: true,
                reserved: price.quota,
                seconds,
                size_multiplier: price.sizeMultiplier,
                price_unit: price.unit,
              },
            },
          ),
        }),
        row: async (trx) => void (await insertTask(trx, task)),
      };
    });
    let row = (await ownVideo(deps.db, p.user.id, id))!;
    // An upstream that finished (or failed) at once is settled now.
    if (sent.progress && (sent.progress.state === 'completed' || sent.progress.state === 'failed'))
      row = await apply(row, sent.progress);
    return videoView(row);
  }

  /** Stores a progress report; a final one settles or refunds (once, whoever gets there first). */
  async function apply(row: TaskRow, pr: VideoProgress): Promise<TaskRow> {
    const { pub, own } = partsOf(row);
    if (pr.state === 'completed') {
      const seconds = pr.seconds ?? pub.seconds;
      const finalQuota = finalVideoQuota(own.price, { seconds, size: pr.size, resolution: pr.resolution });
      await settleVideo(deps.db, row, {
        status: 'SUCCESS',
        finalQuota,
        producedSeconds: seconds,
        size: pr.size,
        resolution: pr.resolution,
        content: pr.content,
      });
    } else if (pr.state === 'failed') {
      await settleVideo(deps.db, row, { status: 'FAILURE', finalQuota: 0, failReason: pr.failReason });
    } else {
      await updateRunning(deps.db, row, pr, own);
    }
    return (await videoById(deps.db, Number(row.id))) ?? row;
  }

  /** One upstream poll of a stored job. */
  async function refresh(row: TaskRow): Promise<TaskRow> {
    const r = resolveRow(row);
    if (!r) return row;
    const { own } = partsOf(row);
    const pr = await r.adapter.poll(r.call, own.upstreamId);
    return apply(row, pr);
  }

  /**
   * The relay's rate limits (per user and per token, relay.md §6) for every door in one place: a
   * video job counts as one request, checked before anything is reserved (a 429 whose retryAfterMs
   * each door's error mapper turns into Retry-After), and as a success once the upstream accepted it.
   */
  async function limited(p: RelayPrincipal, job: () => Promise<VideoTaskView>): Promise<VideoTaskView> {
    const countSuccess = await checkRelayLimits(deps, p);
    const view = await job();
    countSuccess();
    return view;
  }

  async function own(p: RelayPrincipal, id: string): Promise<TaskRow> {
    const row = await ownVideo(deps.db, p.user.id, id);
    if (!row || !partsOf(row).own?.video || partsOf(row).own.deleted) throw notFound();
    return row;
  }

  return {
    refresh,
    apply,
    async submit(p, req, meta) {
      checkModel(p.token, req.model);
      const channel = pickTaskChannel(rt, p, req.model, videoChannelTypes());
      const r = resolve(channel, req.model);
      const caps = r.adapter.capabilities(r.call.upstreamModel);
      checkCapabilities(caps, req, r.call.upstreamModel);
      const seconds = req.seconds ?? caps.seconds[0];
      const sent = { ...req, ...(seconds === undefined ? {} : { seconds }) };
      return limited(p, () => start(p, sent, meta, r, () => r.adapter.submit(r.call, sent)));
    },

    async get(p, id) {
      let row = await own(p, id);
      if (!isFinal(row.status) && nowSeconds() - Number(row.updated_at) >= STALE_AFTER_S) {
        try {
          row = await refresh(row);
        } catch (err) {
          // A reader still gets the last known state when the upstream is down; the poller tries again.
          deps.log.warn({ err, task: row.task_id }, 'video refresh on read failed');
        }
      }
      return videoView(row);
    },

    async list(p, q) {
      let afterRowId: number | undefined;
      if (q.after) afterRowId = Number((await own(p, q.after)).id);
      const rows = await listOwnVideos(deps.db, p.user.id, { afterRowId, limit: q.limit + 1, order: q.order });
      return { items: rows.slice(0, q.limit).map(videoView), hasMore: rows.length > q.limit };
    },

    async remove(p, id) {
      const row = await own(p, id);
      // A running job is still to be settled or refunded: only a finished one goes (OpenAI's rule too).
      if (!isFinal(row.status))
        throw refusal(
          409,
          'Only a completed or failed video can be deleted',
          '只能删除已完成或已失败的视频',
          'video_not_finished',
        );
      const r = resolveRow(row);
      if (r?.adapter.remove) {
        try {
          await r.adapter.remove(r.call, partsOf(row).own.upstreamId);
        } catch (err) {
          deps.log.warn({ err, task: row.task_id }, 'video remove upstream failed');
        }
      }
      // The row stays for the task log and reconciliation; the client no longer sees it.
      await markVideoDeleted(deps.db, row);
      return videoView(row);
    },

    async remix(p, id, prompt, meta) {
      const origin = await own(p, id);
      const { pub, own: o } = partsOf(origin);
      if (origin.status !== 'SUCCESS')
        throw refusal(409, 'Only a completed video can be remixed', '只能基于已完成的视频进行混剪', 'invalid_request');
      const channel = rt.routing.channel(Number(origin.channel_id));
      if (!channel)
        throw refusal(
          503,
          `Channel #${origin.channel_id} is unavailable`,
          `渠道 #${origin.channel_id} 不可用`,
          'channel_unavailable',
        );
      checkModel(p.token, pub.origin_model_name);
      const r = resolve(channel, pub.origin_model_name, o.upstreamModel);
      const remixFn = r.adapter.remix?.bind(r.adapter);
      if (!remixFn || !r.adapter.capabilities(r.call.upstreamModel).remix)
        throw refusal(
          400,
          `Model ${r.call.upstreamModel} cannot remix a video`,
          `模型 ${r.call.upstreamModel} 不支持混剪视频`,
          'invalid_request',
        );
      const req: VideoRequest = {
        model: pub.origin_model_name,
        prompt,
        seconds: pub.seconds,
        size: pub.size,
        resolution: pub.resolution,
        aspectRatio: pub.aspect_ratio,
      };
      return limited(p, () =>
        start(p, req, { ...meta, door: o.door }, r, () => remixFn(r.call, o.upstreamId, prompt), origin.task_id),
      );
    },

    async content(p, id, variant: VideoVariant, range?: string): Promise<VideoFile> {
      let row = await own(p, id);
      if (!isFinal(row.status)) row = await refresh(row).catch(() => row);
      if (row.status !== 'SUCCESS')
        throw refusal(409, 'The video is not ready: the job has not completed', '视频尚未生成完成', 'video_not_ready');
      const { own: o } = partsOf(row);
      if (!o.variants.includes(variant))
        throw refusal(400, `This video has no ${variant}`, `该视频没有 ${variant}`, 'invalid_request');
      const r = resolveRow(row);
      if (!r)
        throw refusal(
          503,
          `Channel #${row.channel_id} is unavailable`,
          `渠道 #${row.channel_id} 不可用`,
          'channel_unavailable',
        );
      return r.adapter.content(r.call, o.upstreamId, o.content, variant, range);
    },
  };
}
