import { createClock, type FakeTaskOptions, sendJson, startJsonServer, timeline } from './task-clock.ts';

/*
 * A fake Midjourney-proxy for tests and manual runs. Prompts steer it:
 * "banned" -> submit code 24, "fail" -> FAILURE at 30%, "modal" -> code 21,
 * "duplicate" -> code 22. `nextSubmit` overrides the next submit answer.
 * Paths work plain and under /mj-{fast,relax,turbo}.
 */

export interface FakeMjTask {
  id: string;
  action: string;
  prompt: string;
  createdAt: number;
  failAt: number | null;
}

export interface FakeMidjourney {
  url: string;
  requests: { method: string; path: string; headers: Record<string, unknown>; body: Record<string, unknown> }[];
  tasks: Map<string, FakeMjTask>;
  advance(ms: number): void;
  /** The next submit answers this instead (e.g. `{code: 23, description: 'queue full'}`). */
  nextSubmit: { code: number; description: string } | null;
  close(): Promise<void>;
}

// A 1x1 transparent PNG: enough for an <img> and for the image proxy test.
export const FAKE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const buttons = ['U1', 'U2', 'U3', 'U4', 'V1', 'V2', 'V3', 'V4'].map((label) => ({
  customId: `MJ::JOB::${label[0] === 'U' ? 'upsample' : 'variation'}::${label[1]}::fakehash`,
  emoji: '',
  label,
  type: 2,
  style: 2,
}));

export async function startFakeMidjourney(opts: FakeTaskOptions = {}): Promise<FakeMidjourney> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeMjTask>();
  let seq = 1_700_000_000_000;
  const state: { nextSubmit: FakeMidjourney['nextSubmit'] } = { nextSubmit: null };
  let base = '';

  function view(t: FakeMjTask) {
    const at = timeline(clock.now() - t.createdAt, stepMs, t.failAt);
    const done = at.status === 'SUCCESS';
    return {
      id: t.id,
      action: t.action,
      prompt: t.prompt,
      promptEn: t.prompt ? `${t.prompt} (en)` : '',
      description: '/imagine',
      state: '',
      submitTime: t.createdAt,
      startTime: at.status === 'NOT_START' ? 0 : t.createdAt + stepMs,
      finishTime: done || at.status === 'FAILURE' ? clock.now() : 0,
      imageUrl: done ? `${base}/images/${t.id}.png` : '',
      status: at.status,
      progress: at.progress,
      failReason: at.status === 'FAILURE' ? 'fake failure: the prompt asked to fail' : '',
      buttons: done ? buttons : [],
      properties: { finalPrompt: t.prompt },
    };
  }

  const srv = await startJsonServer(opts, (req, res) => {
    const path = req.path.replace(/^\/mj-(fast|relax|turbo)(?=\/mj\/)/, '');
    const img = /^\/images\/([^/]+)\.png$/.exec(path);
    if (img && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': FAKE_PNG.length });
      res.end(FAKE_PNG);
      return 'handled';
    }
    const key = req.headers['mj-api-secret'];
    if (typeof key !== 'string' || key === '' || key === 'bad-key')
      return { status: 401, body: { code: 401, description: 'invalid mj-api-secret', result: null } };

    const submit = /^\/mj\/(submit\/[a-z-]+|insight-face\/swap)$/.exec(path);
    if (submit && req.method === 'POST') {
      const prompt = typeof req.body.prompt === 'string' ? req.body.prompt : '';
      if (state.nextSubmit) {
        const a = state.nextSubmit;
        state.nextSubmit = null;
        return { status: 200, body: { ...a, result: null, properties: {} } };
      }
      if (prompt.includes('banned'))
        return {
          status: 200,
          body: { code: 24, description: 'banned prompt', result: null, properties: { bannedWord: 'banned' } },
        };
      if (submit[1] === 'submit/upload-discord-images')
        return {
          status: 200,
          body: { code: 1, description: 'success', result: [`${base}/images/upload-${seq++}.png`] },
        };
      const id = String(seq++);
      const action = submit[1] === 'insight-face/swap' ? 'SWAP_FACE' : submit[1].slice(7).toUpperCase();
      tasks.set(id, { id, action, prompt, createdAt: clock.now(), failAt: prompt.includes('fail') ? 30 : null });
      const code = prompt.includes('modal') ? 21 : prompt.includes('duplicate') ? 22 : 1;
      const description = code === 1 ? '提交成功' : code === 21 ? '窗口等待' : '任务已存在';
      return { status: 200, body: { code, description, result: id, properties: { discordInstanceId: 'fake' } } };
    }
    const fetchOne = /^\/mj\/task\/([^/]+)\/(fetch|image-seed)$/.exec(path);
    if (fetchOne && req.method === 'GET') {
      const t = tasks.get(fetchOne[1]);
      if (!t) return { status: 404, body: { code: 3, description: 'task not found', result: null } };
      if (fetchOne[2] === 'image-seed')
        return { status: 200, body: { code: 1, description: '成功', result: `seed-${t.id}` } };
      return { status: 200, body: view(t) };
    }
    if (path === '/mj/task/list-by-condition' && req.method === 'POST') {
      const ids = Array.isArray(req.body.ids) ? (req.body.ids as unknown[]).map(String) : [];
      return { status: 200, body: ids.flatMap((id) => (tasks.has(id) ? [view(tasks.get(id)!)] : [])) };
    }
    sendJson(res, 404, { code: 404, description: `no route ${path}`, result: null });
    return 'handled';
  });
  base = srv.url;
  return {
    url: srv.url,
    requests: srv.requests,
    tasks,
    advance: clock.advance,
    get nextSubmit() {
      return state.nextSubmit;
    },
    set nextSubmit(v) {
      state.nextSubmit = v;
    },
    close: srv.close,
  };
}
