import { randomUUID } from 'node:crypto';
import { createClock, type FakeTaskOptions, sendJson, startJsonServer } from '../task-clock.ts';
import { FAKE_MP4, type FakeVideoJobs, phaseAt, sendRanged, videoJobsHandle } from './shared.ts';

/*
 * A strict fake of Alibaba Cloud Model Studio's (DashScope) Wan video synthesis:
 *   POST /api/v1/services/aigc/video-generation/video-synthesis  (Bearer key, X-DashScope-Async: enable)
 *        {model, input:{prompt, img_url?, negative_prompt?}, parameters:{size "W*H" | resolution "720P", duration, seed?}}
 *   GET  /api/v1/tasks/{task_id} -> output.task_status PENDING|RUNNING|SUCCEEDED|FAILED|UNKNOWN,
 *        output.video_url, usage.video_duration / video_ratio / video_count
 * What it enforces: the Bearer key (401 InvalidApiKey), the async header (403 AccessDenied, as
 * DashScope answers a synchronous call to an async-only API), text-to-video models take `size` and
 * no image, image-to-video models require `input.img_url` and take `resolution`, each model's sizes,
 * resolutions and durations (400 InvalidParameter). Errors are `{code, message, request_id}`. A
 * prompt containing "fail" (or `fail(id)`) fails the job with DataInspectionFailed; an unknown task
 * id reads UNKNOWN, as DashScope's does. Finished videos are served with Range under /oss/.
 */

interface WanModel {
  kind: 't2v' | 'i2v';
  durations: readonly number[];
  /** t2v: pixel sizes "W*H" (first = default); i2v: resolutions (first = default). */
  shapes: readonly string[];
}

const MODELS: Record<string, WanModel> = {
  'wan2.2-t2v-plus': {
    kind: 't2v',
    durations: [5],
    shapes: ['1920*1080', '1080*1920', '1440*1440', '1632*1248', '1248*1632', '832*480', '480*832', '624*624'],
  },
  'wanx2.1-t2v-turbo': {
    kind: 't2v',
    durations: [5],
    shapes: ['1280*720', '720*1280', '960*960', '1088*832', '832*1088', '832*480', '480*832', '624*624'],
  },
  'wan2.2-i2v-plus': { kind: 'i2v', durations: [5], shapes: ['1080P', '480P'] },
  'wanx2.1-i2v-turbo': { kind: 'i2v', durations: [5, 3, 4], shapes: ['720P', '480P'] },
};

export interface FakeWanTask {
  id: string;
  model: string;
  prompt: string;
  duration: number;
  /** "W*H" as usage.video_ratio reports it. */
  ratio: string;
  createdAt: number;
  fails: boolean;
}

export type FakeDashScope = FakeVideoJobs<FakeWanTask>;

const RATIO_OF_RESOLUTION: Record<string, string> = { '480P': '832*480', '720P': '1280*720', '1080P': '1920*1080' };

export async function startFakeDashScope(opts: FakeTaskOptions & { key?: string } = {}): Promise<FakeDashScope> {
  const key = opts.key ?? 'sk-dashscope-upstream';
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeWanTask>();
  let base = '';
  const err = (status: number, code: string, message: string) => ({
    status,
    body: { code, message, request_id: randomUUID() },
  });
  const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

  const srv = await startJsonServer(opts, (req, res) => {
    const path = req.path.split('?')[0];
    const file = /^\/oss\/([\w-]+)\.mp4$/.exec(path);
    if (file && req.method === 'GET') {
      const t = tasks.get(file[1]);
      // The OSS link is signed, not keyed: a request carrying the API key is not needed.
      if (
        !t ||
        !req.path.includes('Signature=') ||
        phaseAt(clock.now() - t.createdAt, stepMs, t.fails).phase !== 'done'
      ) {
        sendJson(res, 403, { Code: 'AccessDenied', Message: 'Request has expired or the signature does not match.' });
        return 'handled';
      }
      sendRanged(req, res, FAKE_MP4, 'video/mp4');
      return 'handled';
    }
    if (req.headers.authorization !== `Bearer ${key}`) return err(401, 'InvalidApiKey', 'Invalid API-key provided.');

    if (path === '/api/v1/services/aigc/video-generation/video-synthesis' && req.method === 'POST') {
      if (req.headers['x-dashscope-async'] !== 'enable')
        return err(403, 'AccessDenied', 'current user api does not support synchronous calls');
      const b = req.body;
      const model = typeof b.model === 'string' ? b.model : '';
      const m = MODELS[model];
      if (!m) return err(400, 'InvalidParameter', `Model not exist: ${model || '(empty)'}`);
      const input = (b.input ?? {}) as Record<string, unknown>;
      const params = (b.parameters ?? {}) as Record<string, unknown>;
      const prompt = typeof input.prompt === 'string' ? input.prompt : '';
      if (m.kind === 't2v' && !prompt.trim()) return err(400, 'InvalidParameter', 'Field required: input.prompt');
      if (prompt.length > 800) return err(400, 'InvalidParameter', 'The length of input.prompt exceeds 800');
      const img = input.img_url;
      if (m.kind === 'i2v' && (typeof img !== 'string' || !/^(https?:\/\/|data:image\/)/.test(img)))
        return err(400, 'InvalidParameter', 'Field required: input.img_url');
      if (m.kind === 't2v' && img !== undefined)
        return err(400, 'InvalidParameter', `input.img_url is not supported by ${model}`);
      const duration = params.duration === undefined ? m.durations[0] : params.duration;
      if (typeof duration !== 'number' || !m.durations.includes(duration))
        return err(400, 'InvalidParameter', `parameters.duration must be one of ${m.durations.join(', ')}`);
      let ratio: string;
      if (m.kind === 't2v') {
        if (params.resolution !== undefined)
          return err(400, 'InvalidParameter', `parameters.resolution is not supported by ${model}, use size`);
        const size = params.size === undefined ? m.shapes[0] : params.size;
        if (typeof size !== 'string' || !m.shapes.includes(size))
          return err(400, 'InvalidParameter', `parameters.size must be one of ${m.shapes.join(', ')}`);
        ratio = size;
      } else {
        if (params.size !== undefined)
          return err(400, 'InvalidParameter', `parameters.size is not supported by ${model}, use resolution`);
        const r = params.resolution === undefined ? m.shapes[0] : params.resolution;
        if (typeof r !== 'string' || !m.shapes.includes(r))
          return err(400, 'InvalidParameter', `parameters.resolution must be one of ${m.shapes.join(', ')}`);
        ratio = RATIO_OF_RESOLUTION[r];
      }
      const id = randomUUID();
      tasks.set(id, { id, model, prompt, duration, ratio, createdAt: clock.now(), fails: prompt.includes('fail') });
      return { status: 200, body: { output: { task_status: 'PENDING', task_id: id }, request_id: randomUUID() } };
    }

    const poll = /^\/api\/v1\/tasks\/([^/]+)$/.exec(path);
    if (poll && req.method === 'GET') {
      const t = tasks.get(poll[1]);
      if (!t)
        return {
          status: 200,
          body: { request_id: randomUUID(), output: { task_id: poll[1], task_status: 'UNKNOWN' } },
        };
      const at = phaseAt(clock.now() - t.createdAt, stepMs, t.fails);
      const status = { queued: 'PENDING', waiting: 'PENDING', running: 'RUNNING', done: 'SUCCEEDED', failed: 'FAILED' }[
        at.phase
      ];
      const output: Record<string, unknown> = {
        task_id: t.id,
        task_status: status,
        submit_time: iso(t.createdAt),
      };
      if (at.phase === 'running' || at.phase === 'done') output.scheduled_time = iso(t.createdAt + 2 * stepMs);
      if (at.phase === 'done') {
        output.end_time = iso(clock.now());
        output.orig_prompt = t.prompt;
        output.video_url = `${base}/oss/${t.id}.mp4?Expires=${Math.floor(clock.now() / 1000) + 86400}&Signature=fake`;
      }
      if (at.phase === 'failed') {
        output.code = 'DataInspectionFailed';
        output.message = 'Output data may contain inappropriate content.';
      }
      return {
        status: 200,
        body: {
          request_id: randomUUID(),
          output,
          ...(at.phase === 'done'
            ? { usage: { video_duration: t.duration, video_ratio: t.ratio, video_count: 1 } }
            : {}),
        },
      };
    }
    return null;
  });
  base = srv.url;
  return videoJobsHandle(srv, key, tasks, clock);
}
