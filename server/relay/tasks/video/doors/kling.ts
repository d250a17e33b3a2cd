import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refusal } from '../../../errors.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import type { VideoImage, VideoRequest, VideoState, VideoTaskView } from '../types.ts';
import { doorRoute, failureOf } from '../../http.ts';
import { sendVideoFile } from './send-file.ts';
import { siteOrigin } from '../../../../site-origin.ts';

/*
 * Kling's own API as a front door (new-api's /kling/v1/videos/...): a Kling client points its base
 * URL at the gateway and sends its sk- token instead of a JWT. Requests and answers are in Kling's
 * shape; the task id is the gateway's, and a finished task's video URL is the gateway's
 * /kling/v1/videos/{id}/content, downloaded with the same token. Any video upstream can serve it
 * (Kling's mode becomes a resolution, its image/image_tail the first and last frames); the
 * service refuses what the chosen upstream cannot make. Errors are Kling's {code, message,
 * request_id} with a real HTTP status.
 */

type Kind = 'text2video' | 'image2video';

/** Kling's service codes for the statuses the gateway answers with. */
function klingCode(status: number): number {
  if (status === 401) return 1000;
  if (status === 400 || status === 413 || status === 409) return 1201;
  if (status === 403) return 1103;
  if (status === 404) return 1203;
  if (status === 429) return 1302;
  if (status >= 500) return status === 503 ? 5001 : 5000;
  return 1200;
}

const klingRoute = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute((req, reply, err) => {
    const a = failureOf(req, err);
    return reply.status(a.status).send({ code: klingCode(a.status), message: a.message, request_id: req.id });
  }, fn);

const image = z.string().min(1).optional();
const body = z.object({
  model_name: z.string().min(1).optional(),
  // new-api also accepts `model`.
  model: z.string().min(1).optional(),
  prompt: z.string().max(2500).optional(),
  negative_prompt: z.string().max(2500).optional(),
  cfg_scale: z.number().min(0).max(1).optional(),
  mode: z.enum(['std', 'pro']).optional(),
  aspect_ratio: z.string().optional(),
  duration: z.union([z.string(), z.number()]).optional(),
  image,
  image_tail: image,
  camera_control: z.record(z.string(), z.unknown()).optional(),
  callback_url: z.string().optional(),
  external_task_id: z.string().optional(),
  static_mask: z.string().optional(),
  dynamic_masks: z.array(z.unknown()).optional(),
});
type KlingBody = z.infer<typeof body>;

const cannot = (en: string, zh: string) => refusal(400, en, zh, 'invalid_request');

/** An `image` as Kling clients send it: an http(s) URL, a data URL or raw base64. */
function frameOf(v: string | undefined): VideoImage | undefined {
  if (v === undefined) return undefined;
  if (/^(https?:|data:)/i.test(v)) return { url: v };
  const data = Buffer.from(v, 'base64');
  if (data.length === 0 || data.toString('base64').replace(/=+$/, '') !== v.replace(/\s/g, '').replace(/=+$/, ''))
    throw cannot('image must be an image URL or Base64', 'image 必须是图片地址或 Base64');
  const mime = data[0] === 0xff && data[1] === 0xd8 ? 'image/jpeg' : data[0] === 0x52 ? 'image/webp' : 'image/png';
  return { data, mime };
}

/** A Kling request in the gateway's words; what no gateway can carry (callbacks, masks) is refused. */
function videoRequestOf(kind: Kind, b: KlingBody): VideoRequest {
  if (b.callback_url)
    throw cannot('callback_url is not supported: poll the task instead', '不支持 callback_url，请轮询任务状态');
  if (b.external_task_id)
    throw cannot(
      'external_task_id is not supported: use the task_id answered',
      '不支持 external_task_id，请使用返回的 task_id',
    );
  if (b.static_mask || (b.dynamic_masks && b.dynamic_masks.length > 0))
    throw cannot(
      'Motion brush (static_mask, dynamic_masks) is not supported',
      '不支持运动笔刷（static_mask、dynamic_masks）',
    );
  if (kind === 'text2video' && (b.image || b.image_tail))
    throw cannot('text2video takes no image: use image2video', 'text2video 不接受图片，请使用 image2video');
  if (kind === 'image2video' && !b.image && !b.image_tail)
    throw cannot('image2video needs image or image_tail', 'image2video 需要 image 或 image_tail');
  if (kind === 'text2video' && !b.prompt?.trim()) throw cannot('prompt is required', 'prompt 不能为空');
  let seconds: number | undefined;
  if (b.duration !== undefined) {
    seconds = Number(b.duration);
    if (!Number.isInteger(seconds) || seconds <= 0)
      throw cannot(`duration must be a whole number of seconds, not ${String(b.duration)}`, 'duration 必须是整数秒');
  }
  const extra: Record<string, unknown> = {};
  if (b.cfg_scale !== undefined) extra.cfg_scale = b.cfg_scale;
  if (b.mode !== undefined) extra.mode = b.mode;
  if (b.camera_control !== undefined) extra.camera_control = b.camera_control;
  return {
    // Kling's own default model when none is named.
    model: b.model_name ?? b.model ?? 'kling-v1',
    prompt: b.prompt ?? '',
    negativePrompt: b.negative_prompt || undefined,
    seconds,
    aspectRatio: b.aspect_ratio,
    resolution: b.mode === undefined ? undefined : b.mode === 'pro' ? '1080p' : '720p',
    firstFrame: frameOf(b.image),
    lastFrame: frameOf(b.image_tail),
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

const STATUS: Record<VideoState, string> = {
  queued: 'submitted',
  in_progress: 'processing',
  completed: 'succeed',
  failed: 'failed',
};

function taskData(v: VideoTaskView, origin: string) {
  const data: Record<string, unknown> = {
    task_id: v.id,
    task_status: STATUS[v.state],
    task_status_msg: v.error?.message ?? '',
    task_info: {},
    created_at: v.createdAt * 1000,
    updated_at: (v.completedAt ?? v.createdAt) * 1000,
  };
  if (v.state === 'completed')
    data.task_result = {
      videos: [{ id: v.id, url: `${origin}/kling/v1/videos/${v.id}/content`, duration: String(v.seconds) }],
    };
  return data;
}

const ok = (req: FastifyRequest, data: unknown) => ({ code: 0, message: 'SUCCEED', request_id: req.id, data });

export function registerKlingVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const auth = (req: FastifyRequest) => rt.tokenAuth.authenticate(req);

  for (const kind of ['text2video', 'image2video'] as const) {
    app.post(
      `/kling/v1/videos/${kind}`,
      klingRoute(async (req) => {
        const p = await auth(req);
        const parsed = body.safeParse(req.body ?? {});
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw cannot(
            `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
            `请求参数无效：${issue?.path.join('.') ?? ''}`,
          );
        }
        const view = await videos().submit(p, videoRequestOf(kind, parsed.data), {
          ip: req.ip,
          requestId: req.id,
          door: 'kling',
        });
        return ok(req, taskData(view, siteOrigin(rt.deps.services.options.get('ServerAddress'), req)));
      }),
    );
    app.get(
      `/kling/v1/videos/${kind}/:id`,
      klingRoute(async (req) => {
        const p = await auth(req);
        const { id } = req.params as { id: string };
        return ok(
          req,
          taskData(await videos().get(p, id), siteOrigin(rt.deps.services.options.get('ServerAddress'), req)),
        );
      }),
    );
  }

  app.get(
    '/kling/v1/videos/:id/content',
    klingRoute(async (req, reply) => {
      const p = await auth(req);
      const { id } = req.params as { id: string };
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      return sendVideoFile(reply, await videos().content(p, id, 'video', range));
    }),
  );
}
