import { createClock, type FakeTaskOptions, sendJson, startJsonServer } from '../task-clock.ts';
import { FAKE_MP4, type FakeVideoJobs, phaseAt, sendRanged, videoJobsHandle } from './shared.ts';

/*
 * A strict fake of MiniMax's Hailuo video API (platform.minimaxi.com):
 *   POST /v1/video_generation {model, prompt, first_frame_image?, duration, resolution}
 *   GET  /v1/query/video_generation?task_id= -> {task_id, status Preparing|Queueing|Processing|Success|Fail, file_id}
 *   GET  /v1/files/retrieve?file_id= -> {file:{file_id, filename, bytes, download_url}}
 * Every answer carries base_resp {status_code, status_msg} and, as MiniMax does, refusals come with
 * HTTP 200 and a non-zero status_code: 1004 (auth failed), 2013 (invalid parameters), 1026
 * (sensitive content). What it enforces: the Bearer key, each model's durations and resolutions
 * (MiniMax-Hailuo-02: 6 s at 768P/1080P, 10 s at 768P only; T2V-01 / I2V-01: 6 s 720P), that
 * I2V-01 needs first_frame_image and T2V-01 takes none, a prompt for text models. "fail" in the
 * prompt (or `fail(id)`) makes a job end in Fail; files are downloaded with Range under /dl/.
 */

interface HailuoModel {
  /** duration -> resolutions (first = default). */
  table: Record<number, readonly string[]>;
  image: 'none' | 'optional' | 'required';
}

const MODELS: Record<string, HailuoModel> = {
  'MiniMax-Hailuo-02': { table: { 6: ['768P', '1080P'], 10: ['768P'] }, image: 'optional' },
  'T2V-01': { table: { 6: ['720P'] }, image: 'none' },
  'T2V-01-Director': { table: { 6: ['720P'] }, image: 'none' },
  'I2V-01': { table: { 6: ['720P'] }, image: 'required' },
};

export interface FakeHailuoTask {
  id: string;
  fileId: string;
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  createdAt: number;
  fails: boolean;
}

export type FakeMiniMax = FakeVideoJobs<FakeHailuoTask>;

const ok = { status_code: 0, status_msg: 'success' };
const FRAME: Record<string, { video_width: number; video_height: number }> = {
  '720P': { video_width: 1280, video_height: 720 },
  '768P': { video_width: 1366, video_height: 768 },
  '1080P': { video_width: 1920, video_height: 1080 },
};
const refuse = (status_code: number, status_msg: string, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { ...extra, base_resp: { status_code, status_msg } },
});

export async function startFakeMiniMax(opts: FakeTaskOptions & { key?: string } = {}): Promise<FakeMiniMax> {
  const key = opts.key ?? 'minimax-upstream-key';
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeHailuoTask>();
  let seq = 106_916_112_212_032;
  let base = '';

  const srv = await startJsonServer(opts, (req, res) => {
    const url = new URL(req.path, 'http://fake');
    const dl = /^\/dl\/(\d+)\.mp4$/.exec(url.pathname);
    if (dl && req.method === 'GET') {
      const t = [...tasks.values()].find((x) => x.fileId === dl[1]);
      if (!t || url.searchParams.get('token') !== `t${t.fileId}`) {
        sendJson(res, 403, { error: 'forbidden' });
        return 'handled';
      }
      sendRanged(req, res, FAKE_MP4, 'video/mp4');
      return 'handled';
    }
    if (req.headers.authorization !== `Bearer ${key}`)
      return refuse(
        1004,
        'login fail: Please carry the API secret key in the Authorization field of the request header',
      );

    if (url.pathname === '/v1/video_generation' && req.method === 'POST') {
      const b = req.body;
      const model = typeof b.model === 'string' ? b.model : '';
      const m = MODELS[model];
      if (!m) return refuse(2013, `invalid params, model ${model || '(empty)'} not support`);
      const prompt = typeof b.prompt === 'string' ? b.prompt : '';
      if (m.image !== 'required' && !prompt.trim()) return refuse(2013, 'invalid params, prompt is required');
      if (prompt.length > 2000) return refuse(2013, 'invalid params, prompt exceeds 2000 characters');
      const img = b.first_frame_image;
      if (m.image === 'required' && (typeof img !== 'string' || !img))
        return refuse(2013, `invalid params, first_frame_image is required for ${model}`);
      if (m.image === 'none' && img !== undefined)
        return refuse(2013, `invalid params, first_frame_image is not supported by ${model}`);
      if (typeof img === 'string' && !/^(https?:\/\/|data:image\/)/.test(img))
        return refuse(2013, 'invalid params, first_frame_image must be a URL or a base64 data URL');
      const durations = Object.keys(m.table).map(Number);
      const duration = b.duration === undefined ? durations[0] : b.duration;
      if (typeof duration !== 'number' || !m.table[duration])
        return refuse(2013, `invalid params, duration must be one of ${durations.join(', ')} for ${model}`);
      const resolution = b.resolution === undefined ? m.table[duration][0] : b.resolution;
      if (typeof resolution !== 'string' || !m.table[duration].includes(resolution))
        return refuse(
          2013,
          `invalid params, resolution must be one of ${m.table[duration].join(', ')} for ${model} at ${duration}s`,
        );
      if (prompt.includes('sensitive')) return refuse(1026, 'input new_sensitive');
      const id = String(seq++);
      tasks.set(id, {
        id,
        fileId: String(seq++ * 3),
        model,
        prompt,
        duration,
        resolution,
        createdAt: clock.now(),
        fails: prompt.includes('fail'),
      });
      return { status: 200, body: { task_id: id, base_resp: ok } };
    }

    if (url.pathname === '/v1/query/video_generation' && req.method === 'GET') {
      const t = tasks.get(url.searchParams.get('task_id') ?? '');
      if (!t) return refuse(2013, 'invalid params, task_id not found', { task_id: '', status: '' });
      const at = phaseAt(clock.now() - t.createdAt, stepMs, t.fails);
      const status = {
        queued: 'Preparing',
        waiting: 'Queueing',
        running: 'Processing',
        done: 'Success',
        failed: 'Fail',
      }[at.phase];
      return {
        status: 200,
        body: {
          task_id: t.id,
          status,
          file_id: at.phase === 'done' ? t.fileId : '',
          ...(at.phase === 'done' ? FRAME[t.resolution] : {}),
          base_resp: ok,
        },
      };
    }

    if (url.pathname === '/v1/files/retrieve' && req.method === 'GET') {
      const fileId = url.searchParams.get('file_id') ?? '';
      const t = [...tasks.values()].find((x) => x.fileId === fileId);
      if (!t || phaseAt(clock.now() - t.createdAt, stepMs, t.fails).phase !== 'done')
        return refuse(2013, 'invalid params, file not found');
      return {
        status: 200,
        body: {
          file: {
            file_id: Number(fileId),
            bytes: FAKE_MP4.length,
            created_at: Math.floor(clock.now() / 1000),
            filename: 'output.mp4',
            purpose: 'video_generation',
            download_url: `${base}/dl/${fileId}.mp4?token=t${fileId}`,
          },
          base_resp: ok,
        },
      };
    }
    return null;
  });
  base = srv.url;
  return videoJobsHandle(srv, key, tasks, clock);
}
