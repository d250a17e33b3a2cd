import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { createTestApp } from '../app.ts';
import { freePort, type GatewayProcess, startGatewayProcess } from '../gateway-process.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';

/*
 * Graceful shutdown of the real process: SIGTERM while slow streams are running.
 * The streams already started finish whole (with [DONE]), their charges and log
 * rows are in the database afterwards, nobody new gets in, and the process exits 0.
 * Past SHUTDOWN_TIMEOUT_MS a stream still open is cut, and still billed and logged.
 */

const STREAMS = 4;
const CHUNKS = 20;
const QUOTA = 10_000_000;
const messages = [{ role: 'user', content: 'shutdown test prompt' }];

let dataDir: string;
let fake: FakeUpstream;
let port: number;
let gateway: GatewayProcess | undefined;
const user = { id: 0, key: '', tokenId: 0 };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-shutdown-'));
  // 20 chunks 100 ms apart: each stream runs about two seconds.
  fake = await startFakeOpenAI({ chunks: CHUNKS, chunkDelayMs: 100 });
  port = await freePort();
  const t = await createTestApp({}, { dataDir, sqlDsn: path.join(dataDir, 'switchyard.db') });
  await setOptions(t.deps, {
    ModelRatio: JSON.stringify({ 'slow-model': 1 }),
    CompletionRatio: JSON.stringify({ 'slow-model': 1 }),
  });
  await insertChannel(t.deps, { baseUrl: fake.url, models: ['slow-model'] });
  const u = await insertUser(t.deps, { quota: QUOTA });
  // A limited token: every stream holds a real reservation while it runs.
  const tok = await insertToken(t.deps, u.id, { remainQuota: QUOTA });
  Object.assign(user, { id: u.id, key: tok.key, tokenId: tok.id });
  await t.close();
}, 60_000);

afterEach(() => {
  if (gateway && gateway.proc.exitCode === null) gateway.proc.kill('SIGKILL');
});

afterAll(async () => {
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a streaming chat and resolves once its first content chunk arrived; `rest` reads it to the end. */
async function startStream() {
  const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'slow-model', messages, stream: true }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('"content":"w0 "')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  const rest = async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // a cut connection: what arrived so far is the answer
    }
    return text;
  };
  return { rest };
}

/** A request made after SIGTERM: refused at the socket, or answered 503 on a kept-alive one. */
async function lateRequest(): Promise<string> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/status`);
    return String(res.status);
  } catch (err) {
    return ((err as { cause?: { code?: string } }).cause?.code ?? 'error') as string;
  }
}

function ledger() {
  const db = new SQLite(path.join(dataDir, 'switchyard.db'), { readonly: true });
  try {
    const u = db.prepare('SELECT quota, used_quota FROM users WHERE id = ?').get(user.id) as {
      quota: number;
      used_quota: number;
    };
    const logs = db
      .prepare('SELECT quota, completion_tokens, other FROM logs WHERE user_id = ? AND type = 2 ORDER BY id')
      .all(user.id) as { quota: number; completion_tokens: number; other: string }[];
    const reservations = (db.prepare('SELECT COUNT(*) AS n FROM quota_reservations').get() as { n: number }).n;
    return { spent: QUOTA - u.quota, used: u.used_quota, logs, reservations };
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('graceful shutdown (SIGTERM)', () => {
  it('lets in-flight streams finish with [DONE], refuses new requests, bills and logs everything, exits 0', async () => {
    const before = ledger();
    gateway = await startGatewayProcess({ dataDir, port });
    const streams = await Promise.all(Array.from({ length: STREAMS }, startStream));
    const sentAt = Date.now();
    gateway.proc.kill('SIGTERM');
    await sleep(200);

    expect(['ECONNREFUSED', '503']).toContain(await lateRequest());
    const texts = await Promise.all(streams.map((s) => s.rest()));
    for (const text of texts) {
      expect(text).toContain(`"content":"w${CHUNKS - 1} "`);
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    }
    expect(await gateway.exited).toBe(0);
    // The streams needed about two seconds more; the process waited for them, not for the 30 s deadline.
    expect(Date.now() - sentAt).toBeLessThan(15_000);

    const after = ledger();
    const newLogs = after.logs.slice(before.logs.length);
    expect(newLogs).toHaveLength(STREAMS);
    for (const l of newLogs) expect(l.completion_tokens).toBe(CHUNKS);
    const charged = after.spent - before.spent;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBe(newLogs.reduce((s, l) => s + l.quota, 0));
    expect(after.used).toBe(after.spent);
    expect(after.reservations).toBe(0);
  }, 60_000);

  it('cuts streams still running at SHUTDOWN_TIMEOUT_MS, bills what they produced and exits', async () => {
    const before = ledger();
    gateway = await startGatewayProcess({ dataDir, port, env: { SHUTDOWN_TIMEOUT_MS: '500' } });
    const stream = await startStream();
    const sentAt = Date.now();
    gateway.proc.kill('SIGTERM');
    const text = await stream.rest();
    const code = await gateway.exited;
    // Cut about 0.5 s in, well before the stream's two seconds were over.
    expect(text).not.toContain('data: [DONE]');
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect(code).toBe(0);

    const after = ledger();
    const newLogs = after.logs.slice(before.logs.length);
    expect(newLogs).toHaveLength(1);
    // Billed for the part produced (counted, as the cut stream never reported usage), marked as cut.
    expect(newLogs[0].completion_tokens).toBeGreaterThan(0);
    expect(JSON.parse(newLogs[0].other)).toMatchObject({ client_aborted: true });
    expect(after.spent - before.spent).toBe(newLogs[0].quota);
    expect(after.reservations).toBe(0);
  }, 60_000);
});
