import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import bcrypt from 'bcryptjs';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/gateway-process.ts';
import { ensureExecutable } from '../test/sea-executable.ts';
import { type FakeUpstream, startFakeOpenAI } from './fake-upstream/server.ts';
import { gatewayEnv } from './node-flags.mjs';
import { api as restCall, type Session, signIn as signInAt, tokenKeys } from '../test/gateway-client.ts';

/*
 * The single executable as an operator gets it: `npm run package` builds it (console included;
 * test/sea-executable.ts, shared with the container tests), then it is copied alone into an empty folder outside the repository and started with a clean
 * environment (no node on PATH, no node_modules above it). Everything else goes over HTTP:
 * setup, a channel to the fake upstream, a token, a streamed chat completion, SIGTERM, a second
 * start on the same data, the log row. Also prints the file's size and start-up time.
 */

const root = path.resolve(import.meta.dirname, '..');
const runDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sea-run-'));
const exe = path.join(runDir, 'switchyard');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
// PATH as the machine has it, minus every folder holding a `node`.
const PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => dir && !existsSync(path.join(dir, 'node')))
  .join(':');

let fake: FakeUpstream;
let port: number;
const base = () => `http://127.0.0.1:${port}`;
const running: ChildProcess[] = [];

beforeAll(async () => {
  // Built once per source state for this test and test/docker/ (test/sea-executable.ts).
  const built = await ensureExecutable();
  console.log(built.log);
  copyFileSync(built.path, exe);
  fake = await startFakeOpenAI({ port: 0 });
  port = await freePort();
}, 600_000);

afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await fake?.close();
  rmSync(runDir, { recursive: true, force: true });
});

/** The executable in the empty folder, with only what an operator would set. */
function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(exe, args, { cwd: runDir, env: { PATH, HOME: runDir, ...env }, encoding: 'utf8' });
}

/** Starts the gateway; resolves with the process and the milliseconds until it first answered. */
async function start(extraEnv: Record<string, string> = {}) {
  const started = performance.now();
  let stderr = '';
  const proc = spawn(exe, [], {
    cwd: runDir,
    // SQL_DSN and REDIS_URL empty, as compose.yaml passes them without its `scale` profile.
    env: {
      PATH,
      HOME: runDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SQL_DSN: '',
      REDIS_URL: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(proc);
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the executable exited early: ${stderr}`);
    const ok = await fetch(`${base()}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { proc, exited, ms: performance.now() - started, stderr: () => stderr };
    if (performance.now() - started > 60_000) throw new Error(`the executable did not answer: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const api = (method: string, url: string, body?: unknown, session?: Session) =>
  restCall(base(), method, url, body, session);
const signIn = (username: string, password: string) => signInAt(base(), username, password);

const ROOT = { username: 'root', password: 'Sea-Root-Password-1' };

describe('the single executable', () => {
  it('is one file that answers --version and --help without starting', () => {
    const size = statSync(exe).size;
    console.log(`single executable: ${(size / 2 ** 20).toFixed(1)} MB`);
    // Node itself is ~86 MB stripped; the assets (server, console, addons) ~20 MB.
    expect(size).toBeLessThan(140 * 2 ** 20);
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH } }).status, 'no node on this PATH').not.toBe(0);

    const version = run(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(`v${pkg.version}`);
    const help = run(['--help']);
    expect(help.status).toBe(0);
    for (const name of ['DATA_DIR', 'SQL_DSN', 'REDIS_URL', 'PORT', 'import <db>']) expect(help.stdout).toContain(name);
    const wrong = run(['serve-me']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('unknown command');
    // Nothing started, nothing written.
    expect(existsSync(path.join(runDir, 'data'))).toBe(false);
  });

  it('starts from an empty folder, sets up, relays a stream, stops on SIGTERM and keeps its data', async () => {
    const first = await start();
    console.log(`single executable: first answer ${Math.round(first.ms)} ms after start (empty data folder)`);
    expect(first.ms).toBeLessThan(30_000);
    expect(first.stderr(), 'V8 took the embedded code cache').not.toContain('code cache');
    // A quiet start (issue 39): no Node warning, such as the SEA require()'s "only supports loading built-in modules".
    expect(first.stderr()).not.toContain('only supports loading built-in modules');
    expect(first.stderr()).not.toMatch(/\(node:\d+\) \w*Warning/);

    // The gateway runs in a child with npm start's flags and allocator (scripts/sea/node-options.mjs).
    const child = Number(spawnSync('pgrep', ['-P', String(first.proc.pid)], { encoding: 'utf8' }).stdout.trim());
    expect(child).toBeGreaterThan(0);
    const environ = readFileSync(`/proc/${child}/environ`, 'utf8').split('\0');
    expect(environ).toContain('NODE_OPTIONS=--expose-gc --max-semi-space-size=8');
    const jemalloc = gatewayEnv({}).LD_PRELOAD;
    if (jemalloc) expect(readFileSync(`/proc/${child}/maps`, 'utf8')).toContain(jemalloc);

    // The container's HEALTHCHECK command.
    expect(run(['healthcheck'], { PORT: String(port) }).status).toBe(0);
    expect(run(['healthcheck'], { PORT: String(await freePort()) }).status).toBe(1);

    // The embedded console and the relay.
    const page = await fetch(`${base()}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    // Its files as the build wrote them (issue 45): the entry brotli-compressed and cached for a year.
    const entry = await fetch(`${base()}${/src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]}`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(entry.headers.get('content-encoding')).toBe('br');
    expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await entry.text()).toContain('import');
    expect((await api('GET', '/api/status')).data).toMatchObject({ version: `v${pkg.version}` });

    await api('POST', '/api/setup', { ...ROOT, confirmPassword: ROOT.password });
    const admin = await signIn(ROOT.username, ROOT.password);
    await api(
      'POST',
      '/api/channel/',
      { type: 1, name: 'fake', key: 'sk-fake-upstream', base_url: fake.url, models: 'gpt-4o', group: 'default' },
      admin,
    );
    await api('POST', '/api/token/', { name: 'sea', unlimited_quota: true, expired_time: -1 }, admin);
    const [key] = await tokenKeys(base(), admin);
    const client = new OpenAI({ baseURL: `${base()}/v1`, apiKey: key, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hello from the single executable' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o', stream: true });

    first.proc.kill('SIGTERM');
    expect(await first.exited, first.stderr()).toBe(0);
    expect(() => process.kill(child, 0), 'the gateway process ended with its parent').toThrow();

    const cache = path.join(runDir, 'data/cache');
    const [buildFolder] = spawnSync('ls', [cache], { encoding: 'utf8' }).stdout.trim().split('\n');
    const addon = path.join(cache, buildFolder, 'better_sqlite3.node');
    const extractedAt = statSync(addon).mtimeMs;

    // Where CI has Redis, the second start uses it: the bundled Redis client works from the executable too.
    const prefix = `sea-test-${process.pid}:`;
    const redisUrl = process.env.TEST_REDIS_URL;
    const second = await start(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {});
    console.log(`single executable: first answer ${Math.round(second.ms)} ms after a restart`);
    try {
      expect(statSync(addon).mtimeMs, 'the addon is extracted once').toBe(extractedAt);
      expect(second.stderr()).not.toMatch(/\(node:\d+\) \w*Warning/);
      const again = await signIn(ROOT.username, ROOT.password);
      const logs = (await api('GET', '/api/log/?p=1&page_size=10', undefined, again)).data as {
        items: { model_name: string; token_name: string; is_stream: boolean }[];
      };
      expect(logs.items).toContainEqual(expect.objectContaining({ model_name: 'gpt-4o', token_name: 'sea' }));
      if (redisUrl) {
        const redis = new Redis(redisUrl);
        try {
          // The per-IP limit of /api counted these requests in Redis, under this instance's prefix.
          const keys = await redis.keys(`${prefix}*`);
          expect(keys.length).toBeGreaterThan(0);
          await redis.del(...keys);
        } finally {
          redis.disconnect();
        }
      }
    } finally {
      second.proc.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 180_000);

  it('imports a one-api database with `import <db>`', () => {
    const source = path.join(runDir, 'one-api.db');
    const db = new SQLite(source);
    db.exec(`
      CREATE TABLE users (id integer PRIMARY KEY, username text UNIQUE, password text NOT NULL, display_name text,
        role integer DEFAULT 1, status integer DEFAULT 1, email text, quota integer DEFAULT 0, used_quota integer DEFAULT 0,
        request_count integer DEFAULT 0, "group" varchar(64) DEFAULT 'default', aff_code varchar(32), access_token char(32));
      CREATE TABLE tokens (id integer PRIMARY KEY, user_id integer, key char(48) UNIQUE, status integer DEFAULT 1, name text,
        created_time bigint, accessed_time bigint, expired_time bigint DEFAULT -1, remain_quota integer DEFAULT 0,
        unlimited_quota numeric DEFAULT false, used_quota integer DEFAULT 0);
      CREATE TABLE channels (id integer PRIMARY KEY, type integer DEFAULT 0, key text, status integer DEFAULT 1, name text,
        weight integer DEFAULT 0, created_time bigint, base_url text DEFAULT '', models text, "group" varchar(32) DEFAULT 'default',
        model_mapping text DEFAULT '', priority bigint DEFAULT 0);
      CREATE TABLE options (key text PRIMARY KEY, value text);
    `);
    db.prepare(
      `INSERT INTO users (id, username, password, display_name, quota, aff_code) VALUES (7, 'alice', ?, 'Alice', 2500000, 'ALIC')`,
    ).run(bcrypt.hashSync('OldPassword1', 4));
    db.close();
    const imported = run(['import', source, '--from', 'one-api']);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported');
    // The report: alice read and imported, nothing skipped, and the balance check holding.
    expect(imported.stdout).toMatch(/^\s*users\s+1\s+1\s+0$/m);
    expect(imported.stdout).toMatch(/balance check: users' quota 2500000 -> 2500000.*OK/);
  });

  it('is what the container recipe copies, checks and configures', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const name = `dist/switchyard-${process.platform}-${process.arch}`;
    expect(dockerfile).toContain(`COPY ${name} /usr/local/bin/switchyard`);
    expect(dockerfile).toContain('CMD ["switchyard", "healthcheck"]');
    expect(dockerfile).toMatch(/^USER switchyard$/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    expect(readFileSync(path.join(root, '.dockerignore'), 'utf8')).toContain(`!${name}`);
    // Every variable compose.yaml sets is one the executable reads.
    const help = run(['--help']).stdout;
    const compose = readFileSync(path.join(root, 'compose.yaml'), 'utf8');
    const gateway = compose.slice(compose.indexOf('  switchyard:'), compose.indexOf('  postgres:'));
    const names = [...gateway.matchAll(/^ {6}([A-Z_]+):/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(help).toContain(`  ${n} `);
  });
});
