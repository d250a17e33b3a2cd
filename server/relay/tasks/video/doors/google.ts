import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refusal, sendRelayError } from '../../../errors.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import type { VideoImage, VideoRequest, VideoTaskView } from '../types.ts';
import { doorRoute } from '../../http.ts';
import { sendVideoFile } from './send-file.ts';
import { siteOrigin } from '../../../../site-origin.ts';

/*
 * Google's Veo API as a front door (issue 40), as @google/genai calls it with `httpOptions.baseUrl`
 * at the gateway and the sk- token as its API key (`x-goog-api-key`, or `?key=`):
 * - `ai.models.generateVideos` -> POST /v1beta/models/{model}:predictLongRunning (routed here from
 *   the Gemini door's /v1beta/models/* by `isVeoSubmit`), answered `{name: "models/{model}/operations/{id}"}`;
 * - `ai.operations.getVideosOperation` -> GET /v1beta/models/{model}/operations/{id}: `{name}` while
 *   running, `{name, done, response:{generateVideoResponse:{generatedSamples:[{video:{uri}}]}}}` or
 *   `{name, done, error:{code, message}}` once over;
 * - the uri is the gateway's `/v1beta/files/{f}:download?alt=media`, the path `ai.files.download`
 *   requests for an https uri; it downloads with the caller's own key, Range honoured.
 * Ids are the gateway's (`video_<hex>`; a file name is the hex alone, as the SDK reads only
 * `[a-z0-9]+` from a uri). Errors are Google's `{error:{code, message, status}}` (the relay's gemini
 * dialect, every /v1beta path). Any video upstream can serve it.
 */

const ID_PREFIX = 'video_';

const image = z
  .object({
    bytesBase64Encoded: z.string().min(1).optional(),
    // The SDK's own field name, sent by clients that build the body themselves.
    imageBytes: z.string().min(1).optional(),
    gcsUri: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .strict();

const body = z.object({
  instances: z
    .array(
      z
        .object({
          prompt: z.string().optional(),
          image: image.optional(),
          lastFrame: image.optional(),
          referenceImages: z.array(z.unknown()).optional(),
          video: z.unknown().optional(),
          mask: z.unknown().optional(),
        })
        .strict(),
    )
    .length(1, 'instances must hold exactly one instance'),
  parameters: z
    .object({
      aspectRatio: z.string().optional(),
      durationSeconds: z.number().int().positive().optional(),
      resolution: z.string().optional(),
      negativePrompt: z.string().optional(),
      personGeneration: z.string().optional(),
      sampleCount: z.number().int().positive().optional(),
      enhancePrompt: z.boolean().optional(),
      generateAudio: z.boolean().optional(),
      seed: z.number().int().optional(),
      storageUri: z.string().optional(),
      pubsubTopic: z.string().optional(),
      fps: z.number().optional(),
      compressionQuality: z.string().optional(),
      resizeMode: z.string().optional(),
    })
    .strict()
    .optional(),
  webhookConfig: z.unknown().optional(),
  labels: z.unknown().optional(),
});
type Body = z.infer<typeof body>;

const cannot = (en: string, zh: string) => refusal(400, en, zh, 'invalid_argument');

function frameOf(where: string, img: z.infer<typeof image> | undefined): VideoImage | undefined {
  if (!img) return undefined;
  if (img.gcsUri)
    throw cannot(
      `${where}.gcsUri cannot be read by the gateway: send the image as bytesBase64Encoded`,
      `网关无法读取 ${where}.gcsUri，请以 bytesBase64Encoded 发送图片`,
    );
  const b64 = img.bytesBase64Encoded ?? img.imageBytes;
  if (!b64 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64))
    throw cannot(`${where}.bytesBase64Encoded must be Base64`, `${where}.bytesBase64Encoded 必须是 Base64`);
  if (!img.mimeType || !/^image\/(png|jpeg|webp)$/.test(img.mimeType))
    throw cannot(
      `${where}.mimeType must be image/png, image/jpeg or image/webp`,
      `${where}.mimeType 必须是 image/png、image/jpeg 或 image/webp`,
    );
  return { data: Buffer.from(b64, 'base64'), mime: img.mimeType };
}

/** A Veo body in the gateway's words; what no gateway can carry (several samples, webhooks, video input) is refused. */
function videoRequestOf(model: string, b: Body): VideoRequest {
  const inst = b.instances[0];
  const p = b.parameters ?? {};
  if (inst.video !== undefined || inst.mask !== undefined)
    throw cannot('Extending or editing a video is not supported', '不支持延长或编辑视频');
  if (inst.referenceImages?.length)
    throw cannot(
      'referenceImages are not supported: give a first frame (image)',
      '不支持 referenceImages，请使用首帧 image',
    );
  if (p.sampleCount !== undefined && p.sampleCount !== 1)
    throw cannot('One video per operation: sampleCount must be 1', '每个操作只生成一个视频：sampleCount 必须为 1');
  if (p.storageUri || p.pubsubTopic || b.webhookConfig)
    throw cannot(
      'storageUri, pubsubTopic and webhookConfig are not supported: poll the operation and download its uri',
      '不支持 storageUri、pubsubTopic 与 webhookConfig，请轮询操作并下载其 uri',
    );
  if (!inst.prompt?.trim() && !inst.image) throw cannot('prompt is required', 'prompt 不能为空');
  const extra: Record<string, unknown> = {};
  for (const k of ['personGeneration', 'enhancePrompt', 'generateAudio'] as const)
    if (p[k] !== undefined) extra[k] = p[k];
  return {
    model,
    prompt: inst.prompt ?? '',
    negativePrompt: p.negativePrompt || undefined,
    seconds: p.durationSeconds,
    aspectRatio: p.aspectRatio,
    resolution: p.resolution,
    firstFrame: frameOf('instances[0].image', inst.image),
    lastFrame: frameOf('instances[0].lastFrame', inst.lastFrame),
    seed: p.seed,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

/** `POST /v1beta/models/{model}:predictLongRunning`: the Gemini door hands these to this door. */
export function isVeoSubmit(req: FastifyRequest): boolean {
  return /:predictLongRunning$/.test(decodeURIComponent((req.params as { '*'?: string })['*'] ?? ''));
}

const fileNameOf = (id: string) => (id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id);
const operationName = (v: VideoTaskView) => `models/${v.model}/operations/${v.id}`;

/** A job as Google's long-running operation (google.rpc.Code 13 for a failed one; Veo's own choice). */
function operationOf(v: VideoTaskView, origin: string) {
  const name = operationName(v);
  if (v.state === 'failed')
    return { name, done: true, error: { code: 13, message: v.error?.message ?? 'Video generation failed' } };
  if (v.state !== 'completed') return { name, metadata: { progress: v.progress } };
  const uri = `${origin}/v1beta/files/${fileNameOf(v.id)}:download?alt=media`;
  return {
    name,
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
      generateVideoResponse: { generatedSamples: [{ video: { uri } }] },
    },
  };
}

const googleRoute = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute(sendRelayError, fn);

const notFound = (what: string) => refusal(404, `${what} was not found`, `${what} 不存在`, 'not_found');

/** The submit, for the Gemini door's POST /v1beta/models/* to hand over (front-doors/routes.ts). */
export function googleVideoSubmit(rt: RelayRuntime) {
  return googleRoute(async (req) => {
    const p = await rt.tokenAuth.authenticate(req);
    const target = decodeURIComponent((req.params as { '*'?: string })['*'] ?? '');
    const model = target.replace(/:predictLongRunning$/, '').replace(/^models\//, '');
    const parsed = body.safeParse(req.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.join('.') || 'body';
      throw cannot(`Invalid JSON payload: ${at}: ${issue?.message ?? 'invalid'}`, `请求参数无效：${at}`);
    }
    const asked = videoRequestOf(model, parsed.data);
    const view = await videoServiceOf(rt).submit(p, asked, { ip: req.ip, requestId: req.id, door: 'google' });
    return { name: operationName(view) };
  });
}

export function registerGoogleVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const auth = (req: FastifyRequest) => rt.tokenAuth.authenticate(req);

  app.get(
    '/v1beta/models/:model/operations/:id',
    googleRoute(async (req) => {
      const p = await auth(req);
      const { model, id } = req.params as { model: string; id: string };
      const v = await videos().get(p, id);
      // Google names an operation under its model: another model's path does not reach it.
      if (v.model !== model) throw notFound(`Operation models/${model}/operations/${id}`);
      return operationOf(v, siteOrigin(rt.deps.services.options.get('ServerAddress'), req));
    }),
  );

  app.get(
    '/v1beta/files/:file',
    googleRoute(async (req, reply) => {
      const p = await auth(req);
      const m = /^([a-z0-9]+)(:download)?$/.exec((req.params as { file: string }).file);
      if (!m) throw notFound('File');
      const id = `${ID_PREFIX}${m[1]}`;
      const alt = (req.query as { alt?: string }).alt;
      if (!m[2] || alt !== 'media') {
        const v = await videos().get(p, id);
        return {
          name: `files/${m[1]}`,
          mimeType: 'video/mp4',
          state: v.state === 'completed' ? 'ACTIVE' : v.state === 'failed' ? 'FAILED' : 'PROCESSING',
          uri: `${siteOrigin(rt.deps.services.options.get('ServerAddress'), req)}/v1beta/files/${m[1]}:download?alt=media`,
        };
      }
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      return sendVideoFile(reply, await videos().content(p, id, 'video', range));
    }),
  );
}
