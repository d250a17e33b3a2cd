import { createClock, type FakeTaskOptions, sendJson, startJsonServer } from '../task-clock.ts';
import { FAKE_JPEG, FAKE_MP4, type FakeVideoJobs, phaseAt, sendRanged, videoJobsHandle } from './shared.ts';

/*
 * A strict fake of Vidu's enterprise API (api.vidu.cn / platform.vidu.com docs):
 *   POST /ent/v2/text2video | /img2video | /start-end2video  (Authorization: Token <key>)
 *   GET  /ent/v2/tasks/{id}/creations -> {state created|queueing|processing|success|failed, err_code, creations}
 * What it enforces: the `Token` scheme (a Bearer key is 401), the model each endpoint takes, the
 * duration x resolution table of each model, `images` counts (1 for img2video, 2 for start-end2video,
 * none for text2video), a prompt on text2video. Errors are Vidu's `{code, reason, message}` with the
 * HTTP status. A prompt containing "fail" (or `fail(id)`) fails the job with err_code
 * "AuditSubmitIllegal"; the files are served with Range under /files/ on links that expire after an
 * hour of the fake's clock (read the creations again for a fresh one).
 */

interface ModelRule {
  endpoints: readonly string[];
  /** duration -> resolutions; the first duration and its first resolution are the defaults. */
  table: Record<number, readonly string[]>;
}

const MODELS: Record<string, ModelRule> = {
  viduq1: { endpoints: ['text2video', 'img2video', 'start-end2video'], table: { 5: ['1080p'] } },
  'viduq1-classic': { endpoints: ['img2video', 'start-end2video'], table: { 5: ['1080p'] } },
  'vidu2.0': { endpoints: ['img2video', 'start-end2video'], table: { 4: ['360p', '720p', '1080p'], 8: ['720p'] } },
  'vidu1.5': {
    endpoints: ['text2video', 'img2video', 'start-end2video'],
    table: { 4: ['360p', '720p', '1080p'], 8: ['720p'] },
  },
};

/** How long a creation's signed link works. */
export const LINK_TTL_MS = 3_600_000;

const IMAGE_COUNT: Record<string, number> = { text2video: 0, img2video: 1, 'start-end2video': 2 };

export interface FakeViduTask {
  id: string;
  endpoint: string;
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  createdAt: number;
  fails: boolean;
}

export type FakeVidu = FakeVideoJobs<FakeViduTask>;

const err = (status: number, reason: string, message: string) => ({
  status,
  body: { code: status, reason, message, metadata: {} },
});

export async function startFakeVidu(opts: FakeTaskOptions & { key?: string } = {}): Promise<FakeVidu> {
  const key = opts.key ?? 'vidu-upstream-key';
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeViduTask>();
  let seq = 880_000_000_000_000_000n;
  let base = '';

  const srv = await startJsonServer(opts, (req, res) => {
    const path = req.path.split('?')[0];
    const file = /^\/files\/(\d+)\.(mp4|jpeg)$/.exec(path);
    if (file && req.method === 'GET') {
      const t = tasks.get(file[1]);
      const expires = Number(new URL(req.path, 'http://fake').searchParams.get('expires'));
      // Creation links are signed for an hour, as Vidu's are: an expired one is refused.
      if (!t || !(expires > clock.now()) || phaseAt(clock.now() - t.createdAt, stepMs, t.fails).phase !== 'done') {
        sendJson(res, 404, { code: 404, reason: 'NotFound', message: 'object not found' });
        return 'handled';
      }
      sendRanged(req, res, file[2] === 'mp4' ? FAKE_MP4 : FAKE_JPEG, file[2] === 'mp4' ? 'video/mp4' : 'image/jpeg');
      return 'handled';
    }
    if (req.headers.authorization !== `Token ${key}`)
      return err(401, 'Unauthorized', 'invalid api key, use the header "Authorization: Token {api key}"');

    const submit = /^\/ent\/v2\/(text2video|img2video|start-end2video)$/.exec(path);
    if (submit && req.method === 'POST') {
      const endpoint = submit[1];
      const b = req.body;
      const model = typeof b.model === 'string' ? b.model : '';
      const rule = MODELS[model];
      if (!rule || !rule.endpoints.includes(endpoint))
        return err(400, 'InvalidParameter', `model ${model || '(empty)'} is not supported by ${endpoint}`);
      const prompt = typeof b.prompt === 'string' ? b.prompt : '';
      if (endpoint === 'text2video' && !prompt.trim()) return err(400, 'InvalidParameter', 'prompt is required');
      if (prompt.length > 1500) return err(400, 'InvalidParameter', 'prompt exceeds 1500 characters');
      const images = Array.isArray(b.images) ? (b.images as unknown[]) : [];
      const want = IMAGE_COUNT[endpoint];
      if (b.images !== undefined && endpoint === 'text2video')
        return err(400, 'InvalidParameter', 'images is not allowed for text2video');
      if (endpoint !== 'text2video' && images.length !== want)
        return err(400, 'InvalidParameter', `${endpoint} takes exactly ${want} image(s)`);
      if (images.some((i) => typeof i !== 'string' || !/^(https?:\/\/|data:image\/)/.test(i)))
        return err(400, 'InvalidParameter', 'images must be URLs or base64 data URIs');
      const durations = Object.keys(rule.table).map(Number);
      const duration = b.duration === undefined ? durations[0] : b.duration;
      if (typeof duration !== 'number' || !rule.table[duration])
        return err(400, 'InvalidParameter', `duration must be one of ${durations.join(', ')} for ${model}`);
      const resolution = b.resolution === undefined ? rule.table[duration][0] : b.resolution;
      if (typeof resolution !== 'string' || !rule.table[duration].includes(resolution))
        return err(
          400,
          'InvalidParameter',
          `resolution must be one of ${rule.table[duration].join(', ')} for ${model} at ${duration}s`,
        );
      if (
        b.movement_amplitude !== undefined &&
        !['auto', 'small', 'medium', 'large'].includes(String(b.movement_amplitude))
      )
        return err(400, 'InvalidParameter', 'movement_amplitude must be auto, small, medium or large');
      const id = String(seq++);
      tasks.set(id, {
        id,
        endpoint,
        model,
        prompt,
        duration,
        resolution,
        createdAt: clock.now(),
        fails: prompt.includes('fail'),
      });
      return {
        status: 200,
        body: {
          task_id: id,
          state: 'created',
          model,
          prompt,
          images,
          duration,
          seed: 12345,
          resolution,
          movement_amplitude: b.movement_amplitude ?? 'auto',
          created_at: new Date(clock.now()).toISOString(),
        },
      };
    }

    const poll = /^\/ent\/v2\/tasks\/([^/]+)\/creations$/.exec(path);
    if (poll && req.method === 'GET') {
      const t = tasks.get(poll[1]);
      if (!t) return err(404, 'NotFound', 'task not found');
      const at = phaseAt(clock.now() - t.createdAt, stepMs, t.fails);
      const state = {
        queued: 'created',
        waiting: 'queueing',
        running: 'processing',
        done: 'success',
        failed: 'failed',
      }[at.phase];
      return {
        status: 200,
        body: {
          id: t.id,
          state,
          err_code: at.phase === 'failed' ? 'AuditSubmitIllegal' : '',
          credits: at.phase === 'done' ? t.duration * 4 : 0,
          payload: '',
          creations:
            at.phase === 'done'
              ? [
                  {
                    id: `${t.id}1`,
                    url: `${base}/files/${t.id}.mp4?expires=${clock.now() + LINK_TTL_MS}`,
                    cover_url: `${base}/files/${t.id}.jpeg?expires=${clock.now() + LINK_TTL_MS}`,
                  },
                ]
              : [],
        },
      };
    }
    return null;
  });
  base = srv.url;
  return videoJobsHandle(srv, key, tasks, clock);
}
