import { Agent, type Dispatcher, request } from 'undici';

/*
 * Load shapes for the bench: closed loop at concurrency 1 (latency), closed loop at
 * fixed concurrency (throughput), open loop at a fixed request rate (latency under a
 * given load, measured from each request's scheduled start so a stall is not hidden
 * by the client waiting: no coordinated omission), and streams timed chunk by chunk.
 */

export const agent = new Agent({ connections: 2048, keepAliveTimeout: 30_000, pipelining: 1 });

export interface Target {
  base: string;
  key: string;
}

export interface CallResult {
  ms: number;
  ok: boolean;
  /** The gateway's own time from Server-Timing, when it sent one. */
  ownMs?: number;
}

const post = (t: Target, payload: string, dispatcher: Dispatcher = agent) =>
  request(`${t.base}/v1/chat/completions`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body: payload,
  });

export async function call(t: Target, payload: string): Promise<CallResult> {
  const t0 = performance.now();
  try {
    const res = await post(t, payload);
    await res.body.text();
    const timing = res.headers['server-timing'];
    return {
      ms: performance.now() - t0,
      ok: res.statusCode === 200,
      ownMs: typeof timing === 'string' ? Number(timing.split('dur=')[1]) : undefined,
    };
  } catch {
    return { ms: performance.now() - t0, ok: false };
  }
}

export const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * Sequential requests (after a warm-up) to each target in turn, one request at a time:
 * a slow stretch of the machine lands on every target alike instead of on whichever
 * ran during it. Per target: latencies, the gateway's own times and errors.
 */
export async function latency(targets: Target[], payload: string, n: number) {
  // JIT, connections, caches
  for (let i = 0; i < Math.min(300, n); i++) for (const t of targets) await call(t, payload);
  const out = targets.map(() => ({ ms: [] as number[], own: [] as number[], errors: 0 }));
  for (let i = 0; i < n; i++)
    for (let k = 0; k < targets.length; k++) {
      const r = await call(targets[k], payload);
      out[k].ms.push(r.ms);
      if (r.ownMs !== undefined) out[k].own.push(r.ownMs);
      if (!r.ok) out[k].errors++;
    }
  return out;
}

/** Closed loop: `concurrency` clients each sending the next request when the last one answered. */
export async function throughput(t: Target, payload: string, concurrency: number, durationMs: number) {
  let done = 0;
  let errors = 0;
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await call(t, payload);
        if (r.ok) done++;
        else errors++;
      }
    }),
  );
  return { rps: done / (durationMs / 1000), errors, requests: done + errors };
}

/** Open loop: requests start on a fixed schedule whatever the answers do; latency counts from the scheduled time. */
export async function openLoop(t: Target, payload: string, rps: number, durationMs: number) {
  const interval = 1000 / rps;
  const total = Math.floor((durationMs / 1000) * rps);
  const ms: number[] = [];
  let errors = 0;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const at = started + i * interval;
    const wait = at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // From the scheduled time when running late (a stall counts in full), from the send when early.
    const start = Math.min(at, performance.now());
    inflight.push(
      call(t, payload).then((r) => {
        ms.push(performance.now() - start);
        if (!r.ok) errors++;
      }),
    );
  }
  await Promise.all(inflight);
  return { ms, errors, achievedRps: total / ((performance.now() - started) / 1000) };
}

export interface StreamTiming {
  /** Request start to the first content chunk. */
  firstChunkMs: number;
  /** Times between consecutive chunks after the first. */
  gapsMs: number[];
  ok: boolean;
  /** The gateway's own time before the stream (Server-Timing), when it sent one. */
  ownMs?: number;
}

/** One SSE stream, timed at every `data:` event that arrives. */
export async function timedStream(t: Target, payload: string, dispatcher?: Dispatcher): Promise<StreamTiming> {
  const t0 = performance.now();
  const gaps: number[] = [];
  let first = NaN;
  let last = 0;
  let text = '';
  try {
    const res = await post(t, payload, dispatcher);
    for await (const chunk of res.body) {
      const now = performance.now();
      const s = (chunk as Buffer).toString();
      text += s;
      const events = s.split('data: ').length - 1;
      if (events === 0) continue; // pings and partial frames
      if (Number.isNaN(first)) first = now - t0;
      else gaps.push(now - last);
      last = now;
    }
    const timing = res.headers['server-timing'];
    return {
      firstChunkMs: first,
      gapsMs: gaps,
      ok: res.statusCode === 200 && text.includes('data: [DONE]'),
      ownMs: typeof timing === 'string' ? Number(timing.split('dur=')[1]) : undefined,
    };
  } catch {
    return { firstChunkMs: first, gapsMs: gaps, ok: false };
  }
}
