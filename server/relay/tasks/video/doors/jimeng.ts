import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refusal, RelayError, relayAnswerFor } from '../../../errors.ts';
import type { RelayPrincipal } from '../../../principal.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import type { VideoImage, VideoRequest, VideoState, VideoTaskView } from '../types.ts';
import { doorRoute } from '../../http.ts';
import { sendVideoFile } from './send-file.ts';
import { siteOrigin } from '../../../../site-origin.ts';

/*
 * Jimeng's own API as a front door (new-api's /jimeng/): a Jimeng client points its endpoint at the
 * gateway and sends its sk- token as a Bearer header instead of a Volcengine signature.
 *   POST /jimeng/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31 {req_key, prompt, image_urls |
 *     binary_data_base64, aspect_ratio, seed, frames} -> {code:10000, data:{task_id}, message, request_id...}
 *   POST /jimeng/?Action=CVSync2AsyncGetResult&Version=2022-08-31 {req_key, task_id} -> data.status
 *     in_queue | generating | done (video_url: the gateway's /jimeng/videos/{id}/content, downloaded with
 *     the same token, Range honoured).
 * The req_key is the model name, so any video upstream can serve it; frames 121/241 are 5/10 seconds.
 * Errors of the request itself (no Action, an unknown one, no or a bad token) answer Volcengine's
 * {ResponseMetadata:{..., Error:{CodeN, Code, Message}}}; errors of the job answer Jimeng's
 * {code, message, request_id, status, time_elapsed, data} with its 50xxx codes, each with a real HTTP status.
 */

const VERSION = '2022-08-31';
const ACTIONS = ['CVSync2AsyncSubmitTask', 'CVSync2AsyncGetResult'] as const;
type Action = (typeof ACTIONS)[number];

/** Jimeng's business codes for the statuses the gateway answers with (50400/50404/50403 are the gateway's). */
function jimengCode(status: number): number {
  if (status === 429) return 50429;
  if (status === 404) return 50404;
  if (status === 401 || status === 403) return 50403;
  if (status >= 500) return 50500;
  return 50400;
}

/** Volcengine's common error names for a refused request. */
function metaError(status: number, hasKey: boolean): { Code: string; CodeN: number } {
  if (status === 401)
    return hasKey ? { Code: 'InvalidAccessKey', CodeN: 100009 } : { Code: 'MissingAuthenticationToken', CodeN: 100003 };
  if (status === 403) return { Code: 'AccessDenied', CodeN: 100013 };
  if (status === 404) return { Code: 'InvalidActionOrVersion', CodeN: 100008 };
  if (status === 429) return { Code: 'FlowLimitExceeded', CodeN: 100018 };
  if (status >= 500) return { Code: 'InternalError', CodeN: 100001 };
  return { Code: 'MissingParameter', CodeN: 100002 };
}

/** A failure of the request itself, before any job: answered in Volcengine's ResponseMetadata shape. */
class RequestRefused extends Error {
  constructor(readonly reason: unknown) {
    super('refused');
  }
}

const elapsed = (reply: FastifyReply) => `${Math.round(reply.elapsedTime)}ms`;

function answerOf(req: FastifyRequest, err: unknown) {
  const a = relayAnswerFor(req, err);
  return { status: a.status, message: a.message };
}

const causeOf = (thrown: unknown) => (thrown instanceof RequestRefused ? thrown.reason : thrown);

/** A refused request in Volcengine's ResponseMetadata shape; a job's failure in Jimeng's {code, message}. */
function jimengError(req: FastifyRequest, reply: FastifyReply, thrown: unknown) {
  const err = causeOf(thrown);
  const a = answerOf(req, err);
  if (a.status >= 500 && !(err instanceof RelayError)) req.log.error({ err }, 'jimeng door request failed');
  const q = req.query as { Action?: string; Version?: string };
  if (thrown instanceof RequestRefused)
    return reply.status(a.status).send({
      ResponseMetadata: {
        RequestId: req.id,
        Action: q.Action ?? '',
        Version: q.Version ?? '',
        Service: 'cv',
        Region: 'cn-north-1',
        Error: { ...metaError(a.status, !!req.headers.authorization), Message: a.message },
      },
    });
  // A failed job carries Jimeng's own code (failedJob); every other error gets the status's.
  const own = err instanceof RelayError && /^5\d{4}$/.test(err.code ?? '') ? Number(err.code) : undefined;
  const code = own ?? jimengCode(a.status);
  return reply
    .status(a.status)
    .send({ code, message: a.message, request_id: req.id, status: code, time_elapsed: elapsed(reply), data: null });
}

const jimengRoute = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute(jimengError, fn, causeOf);

const strings = z.array(z.string().min(1)).max(2).optional();
const submitBody = z.object({
  req_key: z.string().min(1),
  prompt: z.string().optional(),
  image_urls: strings,
  binary_data_base64: strings,
  aspect_ratio: z.string().optional(),
  seed: z.number().int().optional(),
  frames: z.number().int().optional(),
});
const resultBody = z.object({ req_key: z.string().optional(), task_id: z.string().min(1) });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.join('.') || 'body';
  throw refusal(400, `Invalid Parameter: ${where}: ${issue?.message ?? 'invalid'}`, `请求参数无效：${where}`);
}

const FRAMES: Record<number, number> = { 121: 5, 241: 10 };

/** A Jimeng submit in the gateway's words: the req_key names the model, frames are seconds. */
function videoRequestOf(b: z.infer<typeof submitBody>): VideoRequest {
  if (b.image_urls && b.binary_data_base64)
    throw refusal(
      400,
      'Invalid Parameter: pass image_urls or binary_data_base64, not both',
      '请求参数无效：image_urls 与 binary_data_base64 只能二选一',
    );
  let frames: VideoImage[] = [];
  if (b.image_urls) {
    if (b.image_urls.some((u) => !/^https?:\/\//i.test(u)))
      throw refusal(
        400,
        'Invalid Parameter: image_urls must be http(s) URLs',
        '请求参数无效：image_urls 必须是 http(s) 地址',
      );
    frames = b.image_urls.map((url) => ({ url }));
  } else if (b.binary_data_base64) {
    frames = b.binary_data_base64.map((s) => {
      const data = Buffer.from(s, 'base64');
      if (!data.length)
        throw refusal(
          400,
          'Invalid Parameter: binary_data_base64 is not base64',
          '请求参数无效：binary_data_base64 不是 base64',
        );
      const mime = data[0] === 0xff && data[1] === 0xd8 ? 'image/jpeg' : data[0] === 0x52 ? 'image/webp' : 'image/png';
      return { data, mime };
    });
  }
  let seconds: number | undefined;
  if (b.frames !== undefined) {
    seconds = FRAMES[b.frames];
    if (seconds === undefined)
      throw refusal(
        400,
        `Invalid Parameter: frames must be 121 (5 s) or 241 (10 s), not ${b.frames}`,
        `请求参数无效：frames 只能是 121（5 秒）或 241（10 秒），不能是 ${b.frames}`,
      );
  }
  if (!frames.length && !b.prompt?.trim())
    throw refusal(400, 'Invalid Parameter: prompt is required', '请求参数无效：prompt 不能为空');
  return {
    model: b.req_key,
    prompt: b.prompt ?? '',
    seconds,
    aspectRatio: b.aspect_ratio,
    // Jimeng's -1 is "random", which is what no seed means everywhere.
    seed: b.seed === undefined || b.seed === -1 ? undefined : b.seed,
    firstFrame: frames[0],
    lastFrame: frames[1],
  };
}

const STATUS: Record<VideoState, string> = {
  queued: 'in_queue',
  in_progress: 'generating',
  completed: 'done',
  failed: 'done',
};

const success = (req: FastifyRequest, reply: FastifyReply, data: unknown) => ({
  code: 10000,
  data,
  message: 'Success',
  request_id: req.id,
  status: 10000,
  time_elapsed: elapsed(reply),
});

/** A failed job as Jimeng reports one: content review is 50511 (HTTP 400), anything else 50500 (HTTP 500). */
function failedJob(v: VideoTaskView): RelayError {
  const message = v.error?.message || 'The video generation failed';
  const review = /risk|sensitive|review|moderation|审核|敏感/i.test(`${v.error?.code ?? ''} ${message}`);
  return new RelayError(review ? 400 : 500, message, review ? '50511' : '50500');
}

export function registerJimengVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const auth = async (req: FastifyRequest): Promise<RelayPrincipal> => {
    try {
      return await rt.tokenAuth.authenticate(req);
    } catch (err) {
      throw new RequestRefused(err);
    }
  };

  const handler = jimengRoute(async (req, reply) => {
    const q = req.query as { Action?: string; Version?: string };
    if (!q.Action || !q.Version)
      throw new RequestRefused(
        refusal(
          400,
          `The request is missing ${q.Action ? 'Version' : 'Action'} parameter.`,
          `请求缺少 ${q.Action ? 'Version' : 'Action'} 参数`,
        ),
      );
    if (!ACTIONS.includes(q.Action as Action) || q.Version !== VERSION)
      throw new RequestRefused(
        refusal(
          404,
          `Could not find operation ${q.Action} for version ${q.Version}.`,
          `找不到版本 ${q.Version} 的接口 ${q.Action}`,
        ),
      );
    const p = await auth(req);
    if (q.Action === 'CVSync2AsyncSubmitTask') {
      const view = await videos().submit(p, videoRequestOf(parse(submitBody, req.body)), {
        ip: req.ip,
        requestId: req.id,
        door: 'jimeng',
      });
      return reply.send(success(req, reply, { task_id: view.id }));
    }
    const { task_id } = parse(resultBody, req.body);
    const view = await videos().get(p, task_id);
    if (view.state === 'failed') throw failedJob(view);
    return reply.send(
      success(req, reply, {
        binary_data_base64: null,
        image_urls: null,
        resp_data: '',
        status: STATUS[view.state],
        video_url:
          view.state === 'completed'
            ? `${siteOrigin(rt.deps.services.options.get('ServerAddress'), req)}/jimeng/videos/${view.id}/content`
            : '',
      }),
    );
  });
  // The router ignores a trailing slash: this serves /jimeng/ (new-api's) and /jimeng alike.
  app.post('/jimeng/', handler);

  app.get(
    '/jimeng/videos/:id/content',
    jimengRoute(async (req, reply) => {
      const p = await auth(req);
      const { id } = req.params as { id: string };
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      return sendVideoFile(reply, await videos().content(p, id, 'video', range));
    }),
  );
}
