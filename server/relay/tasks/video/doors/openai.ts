import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refusal, sendRelayError } from '../../../errors.ts';
import { type FormPart, parseMultipart } from '../../../front-doors/multipart.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import type { VideoImage, VideoRequest, VideoTaskView, VideoVariant } from '../types.ts';
import { doorRoute } from '../../http.ts';
import { sendVideoFile } from './send-file.ts';

/*
 * OpenAI's videos API as a front door (issue 40), as the official `openai` SDK v6 calls it:
 * POST /v1/videos (the SDK always sends multipart; JSON is taken too), GET /v1/videos/{id},
 * GET /v1/videos (cursor list), DELETE /v1/videos/{id}, POST /v1/videos/{id}/remix and
 * GET /v1/videos/{id}/content?variant=... streamed with Range. Answers are OpenAI's video object with
 * the gateway's ids; errors OpenAI's {error:{message,type,param,code}} (the relay's openai dialect).
 * Any video upstream can serve it: the service refuses, saying why, what the chosen one cannot make.
 */

/** OpenAI's own limit for an input_reference upload is far below this; it bounds a multipart body. */
const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const VARIANTS: readonly VideoVariant[] = ['video', 'thumbnail', 'spritesheet'];
const CREATE_FIELDS = ['prompt', 'model', 'seconds', 'size', 'input_reference'];
/** OpenAI's default model when a create names none. */
const DEFAULT_MODEL = 'sora-2';

const invalid = (en: string, zh: string, code = 'invalid_value') => refusal(400, en, zh, code);

/** A multipart body as parsed here; a JSON body can never be an instance of this class. */
class FormBody {
  constructor(readonly parts: FormPart[]) {}
  /** Text fields; OpenAI's SDK sends an object field as `name[key]`. */
  fields(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of this.parts) {
      if (p.filename !== undefined) continue;
      const v = p.data.toString('utf8');
      const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(p.name);
      if (nested) out[nested[1]] = { ...(out[nested[1]] as object | undefined), [nested[2]]: v };
      else out[p.name] = v;
    }
    return out;
  }
  file(name: string): FormPart | undefined {
    return this.parts.find((p) => p.name === name && p.filename !== undefined);
  }
}

const openaiRoute = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute(sendRelayError, fn);

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** input_reference as a file part, `{image_url}` (https or data: URL), or a bare URL string. */
function referenceOf(body: FormBody | null, raw: unknown): VideoImage | undefined {
  const file = body?.file('input_reference');
  if (file) {
    const mime = (file.contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!IMAGE_TYPES.includes(mime))
      throw invalid(
        `input_reference must be an image (image/png, image/jpeg or image/webp), not ${mime || 'an untyped file'}`,
        `input_reference 必须是图片（image/png、image/jpeg 或 image/webp），不支持 ${mime || '未标明类型的文件'}`,
      );
    if (file.data.length === 0) throw invalid('input_reference is an empty file', 'input_reference 是空文件');
    return { data: file.data, mime };
  }
  if (raw === undefined || raw === null || raw === '') return undefined;
  const ref = typeof raw === 'string' ? { image_url: raw } : (raw as { image_url?: unknown; file_id?: unknown });
  if (typeof ref === 'object' && ref.file_id !== undefined)
    throw invalid(
      'input_reference.file_id is not supported by this gateway: upload the image or give its image_url',
      '本网关不支持 input_reference.file_id，请直接上传图片或提供 image_url',
    );
  const url = typeof ref === 'object' ? ref.image_url : undefined;
  if (typeof url !== 'string' || !/^(https?:\/\/|data:image\/[a-z+.-]+;base64,)/i.test(url))
    throw invalid(
      'input_reference must be an image file or {"image_url": an http(s) or base64 data URL}',
      'input_reference 必须是图片文件或 {"image_url": http(s) 地址或 base64 data URL}',
    );
  return { url };
}

function secondsOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0)
    throw invalid(
      `seconds must be a whole number of seconds such as "4", not ${JSON.stringify(raw)}`,
      `seconds 必须是整数秒（例如 "4"），不支持 ${JSON.stringify(raw)}`,
    );
  return n;
}

/** A create request (JSON or multipart) in the gateway's words. */
export function createRequestOf(raw: unknown): VideoRequest {
  const form = raw instanceof FormBody ? raw : null;
  const body = form ? form.fields() : raw;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalid('The body must be a JSON object or multipart form', '请求体必须是 JSON 对象或 multipart 表单');
  const b = body as Record<string, unknown>;
  // OpenAI refuses a parameter it does not know; so does its door, rather than drop what the client meant.
  const unknown = [
    ...Object.keys(b),
    ...(form?.parts.filter((p) => p.filename !== undefined).map((p) => p.name) ?? []),
  ].find((k) => !CREATE_FIELDS.includes(k));
  if (unknown) throw invalid(`Unknown parameter: '${unknown}'.`, `未知参数：'${unknown}'`, 'unknown_parameter');
  if (typeof b.prompt !== 'string' || b.prompt.trim() === '')
    throw invalid("Missing required parameter: 'prompt'.", '缺少必填参数：prompt', 'missing_required_parameter');
  if (b.model !== undefined && (typeof b.model !== 'string' || b.model === ''))
    throw invalid('model must be a model name such as "sora-2"', 'model 必须是模型名称，例如 "sora-2"');
  if (b.size !== undefined && (typeof b.size !== 'string' || !/^\d+x\d+$/.test(b.size)))
    throw invalid(
      `size must be WIDTHxHEIGHT such as "1280x720", not ${JSON.stringify(b.size)}`,
      `size 必须形如 "1280x720"（宽x高），不支持 ${JSON.stringify(b.size)}`,
    );
  return {
    model: (b.model as string | undefined) ?? DEFAULT_MODEL,
    prompt: b.prompt,
    seconds: secondsOf(b.seconds),
    size: b.size as string | undefined,
    firstFrame: referenceOf(form, b.input_reference),
  };
}

const SIZE_OF_RESOLUTION: Record<string, [number, number]> = {
  '480p': [854, 480],
  '720p': [1280, 720],
  '1080p': [1920, 1080],
};

/** The pixel size an OpenAI client reads, from an upstream that speaks in resolutions and aspect ratios. */
function sizeOf(v: VideoTaskView): string {
  if (v.size && /^\d+x\d+$/.test(v.size)) return v.size;
  const wh = SIZE_OF_RESOLUTION[v.resolution ?? ''];
  if (!wh) return v.size ?? '';
  const portrait = v.aspectRatio === '9:16';
  return portrait ? `${wh[1]}x${wh[0]}` : `${wh[0]}x${wh[1]}`;
}

/** The video object (openai SDK `Video`), with the gateway's id. */
export function videoObject(v: VideoTaskView) {
  return {
    id: v.id,
    object: 'video' as const,
    model: v.model,
    status: v.state,
    progress: v.state === 'completed' ? 100 : v.progress,
    created_at: v.createdAt,
    completed_at: v.completedAt ?? null,
    expires_at: v.expiresAt ?? null,
    prompt: v.prompt,
    seconds: String(v.seconds),
    size: sizeOf(v),
    error: v.error ? { code: v.error.code, message: v.error.message } : null,
    remixed_from_video_id: v.remixedFromId ?? null,
  };
}

function listQueryOf(q: Record<string, unknown>) {
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalid(
      `limit must be a whole number from 1 to 100, not ${String(q.limit)}`,
      `limit 必须是 1 到 100 的整数，不支持 ${String(q.limit)}`,
    );
  const order = q.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalid(
      `order must be "asc" or "desc", not ${String(order)}`,
      `order 必须是 "asc" 或 "desc"，不支持 ${String(order)}`,
    );
  const after = typeof q.after === 'string' && q.after !== '' ? q.after : undefined;
  return { after, limit, order: order as 'asc' | 'desc' };
}

const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export function registerOpenAIVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const auth = (req: FastifyRequest) => rt.tokenAuth.authenticate(req);
  const meta = (req: FastifyRequest) => ({ ip: req.ip, requestId: req.id });

  // Create and remix take multipart (the SDK's encoding); the parser lives in this scope only.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
      (req, body, done) => {
        try {
          done(null, new FormBody(parseMultipart(body as Buffer, String(req.headers['content-type']))));
        } catch (err) {
          done(err as Error, undefined);
        }
      },
    );
    const upload = { config: { multipartBodyLimit: MAX_UPLOAD_BYTES } };

    scope.post(
      '/v1/videos',
      upload,
      openaiRoute(async (req) => {
        const p = await auth(req);
        const asked = createRequestOf(req.body);
        return videoObject(await videos().submit(p, asked, { ...meta(req), door: 'openai' }));
      }),
    );

    scope.post(
      '/v1/videos/:id/remix',
      upload,
      openaiRoute(async (req) => {
        const p = await auth(req);
        const b = req.body instanceof FormBody ? req.body.fields() : ((req.body ?? {}) as Record<string, unknown>);
        if (typeof b.prompt !== 'string' || b.prompt.trim() === '')
          throw invalid("Missing required parameter: 'prompt'.", '缺少必填参数：prompt', 'missing_required_parameter');
        return videoObject(await videos().remix(p, idOf(req), b.prompt, meta(req)));
      }),
    );

    // The SDK's newer calls (edit, extend, characters) have no counterpart on the other upstreams and none
    // in the video service: a clear refusal instead of OpenAI's bare "Invalid URL".
    for (const [method, path, what] of [
      ['POST', '/v1/videos/edits', 'Video edits (videos.edit)'],
      ['POST', '/v1/videos/extensions', 'Video extensions (videos.extend)'],
      ['POST', '/v1/videos/characters', 'Video characters (videos.createCharacter)'],
      ['GET', '/v1/videos/characters/:id', 'Video characters (videos.getCharacter)'],
    ] as const)
      scope.route({
        method,
        url: path,
        handler: openaiRoute(async (req) => {
          await auth(req);
          throw refusal(
            404,
            `${what} are not supported by this gateway; create, retrieve, list, remix, delete and download are`,
            `本网关不支持${what}；支持创建、查询、列表、混剪、删除和下载`,
            'unsupported_endpoint',
          );
        }),
      });
  });

  app.get(
    '/v1/videos',
    openaiRoute(async (req) => {
      const p = await auth(req);
      const { items, hasMore } = await videos().list(p, listQueryOf((req.query ?? {}) as Record<string, unknown>));
      const data = items.map(videoObject);
      return {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: hasMore,
      };
    }),
  );

  app.get(
    '/v1/videos/:id',
    openaiRoute(async (req) => videoObject(await videos().get(await auth(req), idOf(req)))),
  );

  app.delete(
    '/v1/videos/:id',
    openaiRoute(async (req) => {
      const view = await videos().remove(await auth(req), idOf(req));
      return { id: view.id, object: 'video.deleted', deleted: true };
    }),
  );

  app.get(
    '/v1/videos/:id/content',
    openaiRoute(async (req, reply) => {
      const p = await auth(req);
      const variant = (req.query as { variant?: string }).variant ?? 'video';
      if (!(VARIANTS as readonly string[]).includes(variant))
        throw invalid(
          `variant must be one of video, thumbnail, spritesheet, not ${variant}`,
          `variant 必须是 video、thumbnail 或 spritesheet，不支持 ${variant}`,
        );
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      return sendVideoFile(reply, await videos().content(p, idOf(req), variant as VideoVariant, range));
    }),
  );
}
