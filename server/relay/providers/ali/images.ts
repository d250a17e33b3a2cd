import type { RelayCancel } from '../../cancel.ts';
import { sendUpstream, syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { pause } from '../shared/image-calls.ts';
import type { AttemptContext, UpstreamRequest } from '../types.ts';
import { nativeErrorBody, taskFailureStatus } from './errors.ts';

/*
 * OpenAI's `/v1/images/generations` on DashScope's native text-to-image API, which only runs
 * asynchronously: the request is submitted as a task (`X-DashScope-Async: enable`, answered with
 * `output.task_id`), then `GET /api/v1/tasks/{id}` is polled until the task SUCCEEDED or FAILED.
 * The relay sees one exchange: `sendImageTask` answers the final task JSON (or the failure with
 * its status) through `syntheticAnswer`, and `imagesAnswer` turns it into OpenAI's images answer.
 */

type Json = Record<string, unknown>;

/** Waits between polls: quick at first (small images take seconds), then every 2 s. */
const POLL_STEPS_MS = [250, 500, 1000, 2000];
/** A task not finished after this long is given up as an upstream failure (retryable). */
let taskDeadlineMs = 300_000;

/** For tests: how long a task may run before the attempt fails. */
export function setAliTaskDeadline(ms: number): void {
  taskDeadlineMs = ms;
}

/** `{base}` without a `/compatible-mode/v1` an operator may have entered (native paths live beside it). */
export const aliRoot = (ctx: AttemptContext) => ctx.channel.baseUrl.replace(/\/compatible-mode\/v1\/?$/, '');

/** OpenAI's images body -> the text2image task: `size` "1024x1024" becomes "1024*1024"; a client's own `parameters` / `input` win. */
export function buildImageTask(ctx: AttemptContext, body: Json): UpstreamRequest {
  const parameters: Json = { n: typeof body.n === 'number' ? body.n : 1 };
  if (typeof body.size === 'string' && body.size) parameters.size = body.size.replace(/x/i, '*');
  if (typeof body.negative_prompt === 'string') parameters.negative_prompt = body.negative_prompt;
  if (typeof body.seed === 'number') parameters.seed = body.seed;
  const own = (k: string) => (body[k] && typeof body[k] === 'object' ? (body[k] as Json) : undefined);
  const task = {
    model: ctx.upstreamModel,
    input: own('input') ?? { prompt: body.prompt },
    parameters: own('parameters') ?? parameters,
    // Sent as new-api sends it (DashScope ignores it and answers links; delivery downloads them).
    ...(body.response_format === 'b64_json' ? { response_format: 'b64_json' } : {}),
  };
  return {
    url: `${aliRoot(ctx)}/api/v1/services/aigc/text2image/image-synthesis`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${ctx.key}`,
      'x-dashscope-async': 'enable',
    },
    body: JSON.stringify(task),
  };
}

interface TaskAnswer {
  request_id?: string;
  output?: { task_id?: string; task_status?: string; code?: string; message?: string; results?: unknown[] };
  usage?: { image_count?: number };
}

const parse = (text: string): TaskAnswer => {
  try {
    return JSON.parse(text) as TaskAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
};

/** Submits the task and polls it to the end; answers like one HTTP exchange would. */
export async function sendImageTask(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
): Promise<UpstreamResponse> {
  const submitted = await sendUpstream(req, signal);
  const text = await submitted.body.text();
  if (submitted.statusCode < 200 || submitted.statusCode >= 300) return syntheticAnswer(submitted.statusCode, text);
  const taskId = parse(text).output?.task_id;
  if (!taskId) return syntheticAnswer(502, nativeErrorBody('BadResponse', 'DashScope answered no task id'));
  const poll: UpstreamRequest = {
    url: `${req.url.replace(/\/api\/v1\/services\/.*$/, '')}/api/v1/tasks/${encodeURIComponent(taskId)}`,
    method: 'GET',
    headers: { authorization: req.headers.authorization },
  };
  const deadline = Date.now() + taskDeadlineMs;
  for (let step = 0; ; step++) {
    await pause(POLL_STEPS_MS[Math.min(step, POLL_STEPS_MS.length - 1)], signal);
    const res = await sendUpstream(poll, signal);
    const body = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) return syntheticAnswer(res.statusCode, body);
    const task = parse(body);
    const status = task.output?.task_status;
    if (status === 'SUCCEEDED') {
      const answer = imagesAnswer(task);
      return answer
        ? syntheticAnswer(200, answer)
        : syntheticAnswer(502, nativeErrorBody('NoImage', 'The image task finished without an image', task.request_id));
    }
    if (status === 'FAILED' || status === 'CANCELED' || status === 'UNKNOWN') {
      const code = task.output?.code ?? `Task${status}`;
      const message = task.output?.message ?? `The image task ended ${status}`;
      return syntheticAnswer(taskFailureStatus(code), nativeErrorBody(code, message, task.request_id));
    }
    if (Date.now() >= deadline)
      return syntheticAnswer(504, nativeErrorBody('TaskTimeout', `The image task ${taskId} did not finish in time`));
  }
}

/**
 * The SUCCEEDED task -> OpenAI's `{created, data: [{url}]}` (results that failed alone are left out).
 * DashScope answers links: for `response_format: b64_json` the relay's delivery (images/delivery.ts)
 * downloads them through the upstream pool, as for every image upstream. Undefined without an image.
 */
function imagesAnswer(task: TaskAnswer): string | undefined {
  const results = (task.output?.results ?? []) as { url?: unknown; b64_image?: unknown }[];
  const data: Json[] = [];
  for (const r of results) {
    if (typeof r.b64_image === 'string') data.push({ b64_json: r.b64_image });
    else if (typeof r.url === 'string') data.push({ url: r.url });
  }
  return data.length ? JSON.stringify({ created: Math.floor(Date.now() / 1000), data }) : undefined;
}
