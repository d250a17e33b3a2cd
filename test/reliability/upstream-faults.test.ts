import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayRuntimeOf } from '../../server/relay/runtime.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../relay-fixtures.ts';

/*
 * Upstream faults, one per test, each served by a loopback "fault" server whose
 * handler the test sets. Every case asserts what a client and an operator would
 * notice: the status and error shape, whether another channel was tried, what was
 * billed, what happened to the faulty channel, and that the next request works.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

let h: RelayHarness;
let fault: { url: string; hits: number; handler: Handler; server: Server };
let refusedUrl: string;
const QUOTA = 1_000_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startRelayHarness();
  const state = { hits: 0, handler: ((_q, r) => r.end()) as Handler };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.hits += 1;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // not JSON
      }
      state.handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fault = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return state.hits;
    },
    set hits(v) {
      state.hits = v;
    },
    get handler() {
      return state.handler;
    },
    set handler(v) {
      state.handler = v;
    },
  };
  // A port that was open a moment ago and is closed now: connections are refused.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  refusedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}`, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}`, 1]))),
    RetryTimes: '1',
    AutomaticDisableChannelEnabled: 'true',
  });
  // Idle streams are cut after 1 s here (120 s in production), so the hang case stays fast.
  // Upstreams silent before their headers give up after 800 ms (300 s in production).
  const rt = relayRuntimeOf(h.deps)!;
  rt.tuning.streamIdleMs = 1000;
  rt.tuning.upstreamHeadersMs = 800;
});
afterAll(async () => {
  fault.server.closeAllConnections();
  await new Promise<void>((r) => fault.server.close(() => r()));
  // The aborted fetch of the "client gives up" case can leave a socket on which no request is in
  // progress yet that Node does not count as idle; close it rather than wait for Node's header timeout.
  h.t.app.server.closeAllConnections();
  await h.close();
});

let modelSeq = 0;
/** A fresh model served first by the fault channel (priority 10), then by a healthy fake channel (priority 0). */
async function setup(o: { faultUrl?: string; backup?: boolean; key?: string; type?: number } = {}) {
  const model = `m${modelSeq++}`;
  const faulty = await insertChannel(h.deps, {
    name: `faulty-${model}`,
    type: o.type,
    baseUrl: o.faultUrl ?? fault.url,
    key: o.key,
    models: [model],
    priority: 10,
  });
  const backup =
    o.backup === false
      ? undefined
      : await insertChannel(h.deps, { name: `good-${model}`, baseUrl: h.fake.url, models: [model], priority: 0 });
  const user = await insertUser(h.deps, { quota: QUOTA });
  const token = await insertToken(h.deps, user.id, { unlimited: true });
  fault.hits = 0;
  return { model, faulty, backup, user, token };
}

async function chat(key: string, model: string, extra: Record<string, unknown> = {}, path = '/chat/completions') {
  const res = await fetch(`${h.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }], ...extra }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

async function anthropic(key: string, model: string) {
  const res = await fetch(`${h.baseURL}/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hello there' }] }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const channelStatus = async (id: number) =>
  (await h.deps.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

async function settled(userId: number, tokenId: number) {
  await h.drain();
  const l = await ledger(h.deps, userId, tokenId);
  return { ...l, spent: QUOTA - Number(l.user.quota) };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const openAIError = (body: Record<string, unknown>) => {
  const e = body.error as { message: string; type: string; code: unknown };
  expect(typeof e.message).toBe('string');
  expect(typeof e.type).toBe('string');
  expect(e).toHaveProperty('code');
  return e;
};

describe('retryable upstream failures move to the next channel; the client never notices', () => {
  for (const status of [500, 502]) {
    it(`${status} on the first channel: answered by the backup, billed once, faulty channel stays enabled`, async () => {
      const s = await setup();
      fault.handler = (_q, r) => json(r, status, { error: { message: 'boom', type: 'server_error', code: null } });
      const r = await chat(s.token.key, s.model);
      expect(r.status).toBe(200);
      expect(fault.hits).toBe(1);
      const l = await settled(s.user.id, s.token.id);
      expect(l.logs).toHaveLength(1);
      expect(Number(l.logs[0].channel_id)).toBe(s.backup);
      expect(JSON.parse(l.logs[0].other).admin_info.use_channel).toEqual([String(s.faulty), String(s.backup)]);
      expect(l.spent).toBe(Number(l.logs[0].quota));
      expect(l.spent).toBeGreaterThan(0);
      expect(l.reservations).toHaveLength(0);
      expect(await channelStatus(s.faulty)).toBe(1);
    });
  }

  it('429 with Retry-After: tried elsewhere; alone it becomes a generic 429 and nothing is billed', async () => {
    const s = await setup();
    fault.handler = (_q, r) =>
      json(
        r,
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '1' },
      );
    expect((await chat(s.token.key, s.model)).status).toBe(200);
    expect(fault.hits).toBe(1);
    expect(await channelStatus(s.faulty)).toBe(1);

    const solo = await setup({ backup: false });
    const r = await chat(solo.token.key, solo.model);
    expect(r.status).toBe(429);
    const e = openAIError(r.json());
    expect(e.type).toBe('rate_limit_error');
    // The upstream's own words (and its account details) are not passed on.
    expect(e.message).not.toContain('Rate limit reached for requests');
    const l = await settled(solo.user.id, solo.token.id);
    expect(l.spent).toBe(0);
    expect(l.logs).toHaveLength(0);
    expect(l.reservations).toHaveLength(0);
    expect(await channelStatus(solo.faulty)).toBe(1);
  });

  it('connection refused: tried elsewhere and answered', async () => {
    const s = await setup({ faultUrl: refusedUrl });
    const r = await chat(s.token.key, s.model);
    expect(r.status).toBe(200);
    const l = await settled(s.user.id, s.token.id);
    expect(Number(l.logs[0].channel_id)).toBe(s.backup);
    expect(await channelStatus(s.faulty)).toBe(1);
    // Alone: a 502 in OpenAI shape, nothing billed.
    const solo = await setup({ faultUrl: refusedUrl, backup: false });
    const r2 = await chat(solo.token.key, solo.model);
    expect(r2.status).toBe(502);
    expect(openAIError(r2.json()).type).toBe('server_error');
    expect((await settled(solo.user.id, solo.token.id)).spent).toBe(0);
  });

  it('connection reset before the first byte: tried elsewhere and answered', async () => {
    const s = await setup();
    fault.handler = (q) => q.socket.destroy();
    const r = await chat(s.token.key, s.model);
    expect(r.status).toBe(200);
    expect(fault.hits).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(Number(l.logs[0].channel_id)).toBe(s.backup);
    expect(l.spent).toBe(Number(l.logs[0].quota));
  });
});

describe('key errors disable the channel; other client errors do not', () => {
  it("401 with OpenAI's invalid_api_key body: channel auto-disabled, request answered by the backup", async () => {
    const s = await setup();
    fault.handler = (_q, r) =>
      json(r, 401, {
        error: {
          message: 'Incorrect API key provided: sk-proj-****abcd.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    const r = await chat(s.token.key, s.model);
    expect(r.status).toBe(200);
    expect(await channelStatus(s.faulty)).toBe(3);
    // The next request goes straight to the backup.
    expect((await chat(s.token.key, s.model)).status).toBe(200);
    expect(fault.hits).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(l.logs).toHaveLength(2);
    expect(l.spent).toBe(l.logQuota);
  });

  it("429 insufficient_quota (OpenAI's out-of-credit answer) disables the channel", async () => {
    const s = await setup();
    fault.handler = (_q, r) =>
      json(r, 429, {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      });
    expect((await chat(s.token.key, s.model)).status).toBe(200);
    expect(await channelStatus(s.faulty)).toBe(3);
  });

  it('403 region block from OpenAI: passed to the client as 403, not retried, channel kept, nothing billed', async () => {
    const s = await setup();
    fault.handler = (_q, r) =>
      json(r, 403, {
        error: {
          message: 'Country, region, or territory not supported',
          type: 'request_forbidden',
          param: null,
          code: 'unsupported_country_region_territory',
        },
      });
    const r = await chat(s.token.key, s.model);
    expect(r.status).toBe(403);
    openAIError(r.json());
    expect(fault.hits).toBe(1);
    expect(await channelStatus(s.faulty)).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(0);
    expect(l.reservations).toHaveLength(0);
    // Once the upstream recovers, the same channel answers again.
    fault.handler = (_q, res) =>
      json(res, 200, {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: s.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      });
    expect((await chat(s.token.key, s.model)).status).toBe(200);
    expect((await settled(s.user.id, s.token.id)).spent).toBe(6);
  });

  it('the Anthropic front door answers an upstream failure in Anthropic shape', async () => {
    const s = await setup({ backup: false });
    fault.handler = (_q, r) => json(r, 500, { error: { message: 'boom', type: 'server_error', code: null } });
    const r = await anthropic(s.token.key, s.model);
    expect(r.status).toBe(500);
    expect(r.json.type).toBe('error');
    expect((r.json.error as { type: string }).type).toBe('api_error');
    expect((await settled(s.user.id, s.token.id)).spent).toBe(0);
    // A working channel behind the same door answers in Anthropic shape.
    const ok = await setup({ faultUrl: h.fake.url, backup: false });
    const r2 = await anthropic(ok.token.key, ok.model);
    expect(r2.status).toBe(200);
    expect(r2.json.type).toBe('message');
  });
});

describe('broken answers', () => {
  it('malformed JSON in a 200: a 5xx in OpenAI shape, nothing billed, the channel kept, next request fine', async () => {
    const s = await setup({ backup: false });
    fault.handler = (_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.end('{"id":"chatcmpl-1","choices":[{"message":');
    };
    const r = await chat(s.token.key, s.model);
    expect(r.status).toBeGreaterThanOrEqual(500);
    openAIError(r.json());
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(0);
    expect(l.reservations).toHaveLength(0);
    expect(await channelStatus(s.faulty)).toBe(1);
    fault.handler = (_q, res) =>
      json(res, 200, {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: s.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      });
    expect((await chat(s.token.key, s.model)).status).toBe(200);
    expect((await settled(s.user.id, s.token.id)).spent).toBe(7);
  });

  it('a stream cut mid-way: the client gets what was produced and an error event; billed for it; not retried', async () => {
    const s = await setup();
    fault.handler = (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 4; i++)
        r.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: s.model, choices: [{ index: 0, delta: { content: `part${i} ` } }] })}\n\n`,
        );
      setTimeout(() => r.socket?.destroy(), 50);
    };
    const r = await chat(s.token.key, s.model, { stream: true });
    expect(r.status).toBe(200);
    expect(r.text).toContain('part3');
    expect(r.text).toContain('upstream_stream_error');
    expect(fault.hits).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(l.logs).toHaveLength(1);
    expect(Number(l.logs[0].channel_id)).toBe(s.faulty);
    expect(l.logs[0].completion_tokens).toBeGreaterThan(0);
    expect(l.spent).toBe(Number(l.logs[0].quota));
    expect(l.reservations).toHaveLength(0);
    expect(await channelStatus(s.faulty)).toBe(1);
  });

  it('a stream that never sends [DONE] and goes silent is cut by the idle timer; billed for what was produced', async () => {
    const s = await setup({ backup: false });
    fault.handler = (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/event-stream' });
      r.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: s.model, choices: [{ index: 0, delta: { content: 'only this' } }] })}\n\n`,
      );
      // ...and then nothing, connection held open.
    };
    const started = Date.now();
    const r = await chat(s.token.key, s.model, { stream: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.text).toContain('only this');
    expect(r.text).toContain('upstream_timeout');
    const l = await settled(s.user.id, s.token.id);
    expect(l.logs).toHaveLength(1);
    expect(l.spent).toBe(Number(l.logs[0].quota));
    expect(l.spent).toBeGreaterThan(0);
    expect(l.reservations).toHaveLength(0);
  });

  it('a very slow drip (gaps below the idle limit) is delivered whole and billed whole', async () => {
    const s = await setup({ backup: false });
    fault.handler = (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const tick = () => {
        if (i < 6) {
          r.write(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: s.model, choices: [{ index: 0, delta: { content: `d${i} ` } }] })}\n\n`,
          );
          i += 1;
          setTimeout(tick, 250);
        } else {
          r.write(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: s.model, choices: [], usage: { prompt_tokens: 7, completion_tokens: 6, total_tokens: 13 } })}\n\n`,
          );
          r.end('data: [DONE]\n\n');
        }
      };
      tick();
    };
    const r = await chat(s.token.key, s.model, { stream: true });
    for (let i = 0; i < 6; i++) expect(r.text).toContain(`d${i}`);
    expect(r.text).toContain('[DONE]');
    expect(r.text).not.toContain('upstream_timeout');
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(13);
  });

  it('an upstream that never answers headers: a 504 after the headers timeout, not retried, nothing billed', async () => {
    const s = await setup();
    fault.handler = () => undefined; // accepts the request, never answers
    const before = h.fake.requests.length;
    const started = Date.now();
    const r = await chat(s.token.key, s.model);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.status).toBe(504);
    expect(openAIError(r.json()).type).toBe('server_error');
    // The upstream may still be working (and billing): by default a timeout is not sent elsewhere too.
    expect(fault.hits).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(0);
    expect(l.logs).toHaveLength(0);
    expect(l.reservations).toHaveLength(0);
    expect(await channelStatus(s.faulty)).toBe(1);
    expect(h.fake.requests.length).toBe(before);
    fault.handler = (_q, res) =>
      json(res, 200, {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: s.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      });
    expect((await chat(s.token.key, s.model)).status).toBe(200);
  });

  it('the headers timeout holds for providers that send their own requests (a Tencent Hunyuan channel)', async () => {
    const s = await setup({ type: 23, key: '1300000000|AKIDfault|fault-secret', backup: false });
    fault.handler = () => undefined; // accepts the request, never answers
    const started = Date.now();
    const r = await chat(s.token.key, s.model);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.status).toBe(504);
    expect(fault.hits).toBe(1);
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(0);
  });

  it('an upstream that never answers headers: a client that gives up first aborts it and pays nothing', async () => {
    const s = await setup({ backup: false });
    let upstreamClosed = false;
    fault.handler = (q) => {
      q.socket.on('close', () => (upstreamClosed = true));
    };
    const ac = new AbortController();
    const p = fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      signal: ac.signal,
      headers: { authorization: `Bearer ${s.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: s.model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await sleep(300);
    ac.abort();
    await expect(p).rejects.toThrow();
    for (let i = 0; i < 40 && !upstreamClosed; i++) await sleep(50);
    expect(upstreamClosed).toBe(true);
    const l = await settled(s.user.id, s.token.id);
    expect(l.spent).toBe(0);
    expect(l.reservations).toHaveLength(0);
  });
});
