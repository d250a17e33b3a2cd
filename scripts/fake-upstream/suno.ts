import { createClock, type FakeTaskOptions, startJsonServer, timeline } from './task-clock.ts';

/*
 * A fake Suno API for tests and manual runs. Prompts steer it: "banned" -> the
 * submit is refused (HTTP 400, code "banned_prompt"), "fail" -> FAILURE at 30%.
 * Tasks run NOT_START -> SUBMITTED -> IN_PROGRESS 10%..90% -> SUCCESS with clips
 * (music) or lyrics text.
 */

export interface FakeSunoTask {
  id: string;
  action: 'MUSIC' | 'LYRICS';
  prompt: string;
  createdAt: number;
  failAt: number | null;
}

export interface FakeSuno {
  url: string;
  requests: { method: string; path: string; headers: Record<string, unknown>; body: Record<string, unknown> }[];
  tasks: Map<string, FakeSunoTask>;
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startFakeSuno(opts: FakeTaskOptions = {}): Promise<FakeSuno> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeSunoTask>();
  let seq = 1;
  let base = '';

  function view(t: FakeSunoTask) {
    const at = timeline(clock.now() - t.createdAt, stepMs, t.failAt);
    const sec = (ms: number) => Math.floor(ms / 1000);
    const done = at.status === 'SUCCESS';
    const data = !done
      ? null
      : t.action === 'LYRICS'
        ? { id: t.id, status: 'complete', title: 'Fake song', text: `[Verse]\n${t.prompt}\n[Chorus]\nla la la` }
        : [1, 2].map((n) => ({
            id: `${t.id}-clip${n}`,
            status: 'complete',
            title: `Fake song ${n}`,
            audio_url: `${base}/audio/${t.id}-${n}.mp3`,
            image_url: `${base}/audio/${t.id}-${n}.png`,
            metadata: { prompt: t.prompt, tags: 'pop', duration: 120 },
          }));
    return {
      task_id: t.id,
      action: t.action,
      status: at.status,
      fail_reason: at.status === 'FAILURE' ? 'fake failure: the prompt asked to fail' : '',
      submit_time: sec(t.createdAt),
      start_time: at.status === 'NOT_START' ? 0 : sec(t.createdAt + stepMs),
      finish_time: done || at.status === 'FAILURE' ? sec(clock.now()) : 0,
      progress: at.progress,
      data,
    };
  }

  const srv = await startJsonServer(opts, (req) => {
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? '')))
      return { status: 401, body: { code: 'unauthorized', message: 'invalid key', data: null } };
    const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(req.path);
    if (submit && req.method === 'POST') {
      const prompt = String(req.body.prompt ?? req.body.gpt_description_prompt ?? '');
      if (prompt.includes('banned'))
        return { status: 400, body: { code: 'banned_prompt', message: 'banned prompt', data: null } };
      const id = `suno-${seq++}`;
      const action = submit[1] === 'music' ? 'MUSIC' : 'LYRICS';
      tasks.set(id, { id, action, prompt, createdAt: clock.now(), failAt: prompt.includes('fail') ? 30 : null });
      return { status: 200, body: { code: 'success', message: '', data: id } };
    }
    if (req.path === '/suno/fetch' && req.method === 'POST') {
      const ids = Array.isArray(req.body.ids) ? (req.body.ids as unknown[]).map(String) : [];
      return {
        status: 200,
        body: {
          code: 'success',
          message: '',
          data: ids.flatMap((id) => (tasks.has(id) ? [view(tasks.get(id)!)] : [])),
        },
      };
    }
    const one = /^\/suno\/fetch\/([^/]+)$/.exec(req.path);
    if (one && req.method === 'GET') {
      const t = tasks.get(one[1]);
      if (!t) return { status: 404, body: { code: 'task_not_exist', message: 'task not exist', data: null } };
      return { status: 200, body: { code: 'success', message: '', data: view(t) } };
    }
    return null;
  });
  base = srv.url;
  return { url: srv.url, requests: srv.requests, tasks, advance: clock.advance, close: srv.close };
}
