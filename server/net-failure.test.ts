import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverText } from '../shared/server-messages.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { insertChannel } from '../test/relay-fixtures.ts';
import { login, restHeaders, setupRoot } from '../test/users.ts';
import { describeNetFailure, netFailurePhrase } from './net-failure.ts';

/*
 * Network failures reach the admin as sentences, the raw error under `detail` (issue 31): a channel
 * test, a model fetch and a balance query against a port nobody listens on, over real loopback HTTP,
 * and the server log's one line for the model fetch's 502.
 */

/** A loopback port that refuses connections: bound once to learn a free number, then closed. */
async function closedPort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const refused = (address: string) => serverText('net.refused', { target: serverText('net.target.upstream'), address });

describe('describeNetFailure', () => {
  it('words a refused connection, a name that does not resolve and a bad address, keeping the raw text', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1/models?key=secret-key`;
    const err = await fetch(url).catch((e: unknown) => e);
    const f = describeNetFailure(err, 'upstream', url);
    expect(f.message).toEqual({
      code: 'net.refused',
      params: { target: serverText('net.target.upstream'), address: `127.0.0.1:${port}` },
    });
    expect(f.detail).toContain('ECONNREFUSED');

    const dns = await fetch('http://nowhere.invalid/').catch((e: unknown) => e);
    const d = describeNetFailure(dns, 'release_feed', 'http://nowhere.invalid/');
    expect(d.message.code).toBe('net.dns');
    expect(d.message.params.host).toBe('nowhere.invalid');
    expect(d.detail).toMatch(/ENOTFOUND|EAI_AGAIN/);

    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(describeNetFailure(timeout, 'oidc', 'https://idp.example/.well-known').message).toEqual({
      code: 'net.timeout',
      params: { target: serverText('net.target.oidc'), address: 'idp.example' },
    });
    // undici's protocol refusal has markdown backticks in its text: the detail drops them.
    const bad = Object.assign(new Error('Invalid URL protocol: the URL must start with `http:` or `https:`.'), {
      code: 'UND_ERR_INVALID_ARG',
    });
    const b = describeNetFailure(bad, 'upstream', 'ftp://files.example');
    expect(b.message.code).toBe('net.bad_address');
    expect(b.detail).not.toContain('`');
  });

  it('gives the relay a phrase without the address (API callers must not learn where channels point)', async () => {
    const port = await closedPort();
    const err = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(netFailurePhrase(err)).toEqual({
      en: 'connection refused (ECONNREFUSED)',
      zh: '连接被拒绝（ECONNREFUSED）',
    });
  });

  it('never puts a URL query (a Gemini key) in the detail', () => {
    const err = new TypeError('Failed to parse URL from http://x y/v1beta/models?key=AIza-secret');
    expect(describeNetFailure(err, 'upstream').detail).not.toContain('AIza-secret');
  });
});

describe('network failures over HTTP', () => {
  let t: TestApp;
  let base: string;
  let headers: Record<string, string>;
  let dead: string;
  let channelId: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { logTo: { write: (line: string) => void logLines.push(line) } });
    await setupRoot(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const root = await login(t, 'root', 'RootPass123!');
    headers = { ...restHeaders(root), 'content-type': 'application/json' };
    dead = `127.0.0.1:${await closedPort()}`;
    channelId = await insertChannel(t.deps, { baseUrl: `http://${dead}`, models: ['gpt-4o-mini'] });
  });
  afterAll(() => t.close());

  it('a channel test says the upstream refused the connection; the raw error is the detail', async () => {
    const res = await fetch(`${base}/api/channel/test/${channelId}`, { headers });
    const body = (await res.json()) as { success: boolean; message: string; detail?: string };
    expect(body.success).toBe(false);
    expect(body.message).toBe(refused(dead));
    expect(body.message).not.toContain('ECONNREFUSED');
    expect(body.detail).toContain(`ECONNREFUSED ${dead}`);

    // The console's call: the result carries the message's code and the detail.
    const trpc = await fetch(`${base}/trpc/channels.test`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: channelId }),
    });
    const r = ((await trpc.json()) as { result: { data: { reason: unknown; detail?: string } } }).result.data;
    expect(r.reason).toEqual({
      code: 'net.refused',
      params: { target: serverText('net.target.upstream'), address: dead },
    });
    expect(r.detail).toContain('ECONNREFUSED');
  });

  it('a model fetch answers 502 in the envelope with the sentence, and logs one line without a stack', async () => {
    logLines.length = 0;
    const res = await fetch(`${base}/api/channel/fetch_models`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ base_url: `http://${dead}`, type: 1, key: 'sk-test' }),
    });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { success: boolean; message: string; detail?: string };
    expect(body).toEqual({ success: false, message: refused(dead), detail: expect.stringContaining('ECONNREFUSED') });

    const failures = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => Number(l.level) >= 40);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ msg: 'request failed', messageCode: 'net.refused' });
    expect(failures[0].detail).toContain('ECONNREFUSED');
    const line = JSON.stringify(failures[0]);
    expect(line).not.toContain('stack');
    expect(line).not.toMatch(/[\u4e00-\u9fff]/);

    // tRPC: the same status, the code to translate and the detail.
    const trpc = await fetch(`${base}/trpc/channels.fetchModelsOf`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: channelId }),
    });
    expect(trpc.status).toBe(502);
    const err = ((await trpc.json()) as { error: { data: Record<string, unknown> } }).error.data;
    expect(err).toMatchObject({ messageCode: 'net.refused', detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('a balance query says the same', async () => {
    const res = await fetch(`${base}/api/channel/update_balance/${channelId}`, { headers });
    const body = (await res.json()) as { success: boolean; message: string; detail?: string };
    expect(body.success).toBe(false);
    expect(body.message).toBe(refused(dead));
    expect(body.detail).toContain('ECONNREFUSED');
  });
});
