import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createTestApp } from '../../test/app.ts';
import { rebuildLogHourly } from '../../server/domains/logs/log-hourly.repo.ts';
import { createLogsService } from '../../server/domains/logs/logs.service.ts';
import { logFilterInput, logListInput } from '../../shared/schemas/logs.ts';

/*
 * The log page on a big SQLite file: ROWS consume/error rows spread over 90 days,
 * 500 users, 40 models, 30 channels, then the queries the console's log page
 * makes (page rows + total, the stat box), through the real logs service. The file
 * is built once per row count and kept in the temp dir for later runs.
 */

const DAY = 86_400;
const USERS = 500;
const MODELS = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? `gpt-4o-${i}` : `claude-${i}`));

async function buildDatabase(file: string, rows: number, now: number) {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const building = `${file}.building`;
  rmSync(building, { force: true });
  // Migrate through the real code so the schema and indexes are exactly the app's.
  const t = await createTestApp({ logLevel: 'silent' }, { dataDir: dir, sqlDsn: building });
  await t.close();
  const db = new SQLite(building);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota,
       prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, "group", ip, other)
     VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'default', '', '{"model_ratio":1}')`,
  );
  const start = now - 90 * DAY;
  const step = (90 * DAY) / rows;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // A few heavy users, a long tail: what a real gateway's log looks like.
      const user = 1 + (i % 7 === 0 ? i % 5 : (Math.imul(i, 2654435761 | 0) >>> 0) % USERS);
      const model = MODELS[(i * 40503) % MODELS.length];
      const type = i % 50 === 0 ? 5 : 2;
      insert.run(
        user,
        Math.floor(start + i * step),
        type,
        `user${user}`,
        `token-${user % 3}`,
        model,
        type === 2 ? 100 + (i % 900) : 0,
        200 + (i % 300),
        50 + (i % 500),
        1 + (i % 9),
        i % 2,
        1 + (i % 30),
        user * 3 + (user % 3),
      );
    }
  });
  for (let i = 0; i < rows; i += 100_000) batch(i, Math.min(rows, i + 100_000));
  db.close();
  // Raw inserts bypass the app's log writer, so fill the hourly rollup as the migration does for old data.
  const app = await createTestApp({ logLevel: 'silent' }, { dataDir: dir, sqlDsn: building });
  await rebuildLogHourly(app.deps.db);
  await app.close();
  const optimized = new SQLite(building);
  optimized.pragma('optimize');
  optimized.close();
  renameSync(building, file);
  rmSync(`${building}-wal`, { force: true });
  rmSync(`${building}-shm`, { force: true });
}

export interface LogQueryResult {
  rows: number;
  build_s: number | null;
  queries_ms: Record<string, number>;
  slowest_ms: number;
}

/** Builds (or reuses) the big file and times each log-page query: the median of 7 runs after one warm-up. */
export async function benchLogQueries(rows: number): Promise<LogQueryResult> {
  const now = 1_790_000_000; // a fixed "now" so the cached file's time ranges stay meaningful
  const file = path.join(os.tmpdir(), 'switchyard-bench', `logs-${rows}-v3.db`);
  let build_s: number | null = null;
  if (!existsSync(file)) {
    const t0 = performance.now();
    await buildDatabase(file, rows, now);
    build_s = Math.round((performance.now() - t0) / 100) / 10;
  }
  const t = await createTestApp({ logLevel: 'silent' }, { dataDir: path.dirname(file), sqlDsn: file });
  const logs = createLogsService(t.deps.db);
  const day = { start_timestamp: now - DAY, end_timestamp: now + 3600 };
  const week = { start_timestamp: now - 7 * DAY, end_timestamp: now + 3600 };
  const list = (q: Record<string, unknown>) => logListInput.parse(q);
  const filter = (q: Record<string, unknown>) => logFilterInput.parse(q);
  const cases: Record<string, () => Promise<unknown>> = {
    'admin page, last 24 h (console default)': () => logs.listAll(list(day)),
    'admin stat, last 24 h': () => logs.statAll(filter(day)),
    'admin page, all time': () => logs.listAll(list({})),
    'admin stat, all time': () => logs.statAll(filter({})),
    'admin page 200, all time': () => logs.listAll(list({ p: 200 })),
    'admin page, by model, 7 days': () => logs.listAll(list({ ...week, model_name: 'claude-7' })),
    'admin page, by user name, all time': () => logs.listAll(list({ username: 'user42' })),
    'admin page, by channel, 7 days': () => logs.listAll(list({ ...week, channel: 12 })),
    'admin page, errors only, all time': () => logs.listAll(list({ type: 5 })),
    'user page, last 24 h': () => logs.listSelf(3, list(day)),
    'user stat, last 24 h': () => logs.statSelf(3, filter(day)),
    'user page, all time': () => logs.listSelf(3, list({})),
    'user stat, all time': () => logs.statSelf(3, filter({})),
  };
  // The fast answers must also be the right ones: the page total against a plain COUNT.
  const raw = new SQLite(file, { readonly: true });
  const counted = (raw.prepare('SELECT COUNT(*) AS n FROM logs').get() as { n: number }).n;
  const byUser = (raw.prepare("SELECT COUNT(*) AS n FROM logs WHERE username = 'user42'").get() as { n: number }).n;
  raw.close();
  const totals = [(await logs.listAll(list({}))).total, (await logs.listAll(list({ username: 'user42' }))).total];
  if (totals[0] !== counted || totals[1] !== byUser)
    throw new Error(`log page totals ${totals.join(', ')} differ from COUNT(*) ${counted}, ${byUser}`);
  const queries_ms: Record<string, number> = {};
  for (const [name, run] of Object.entries(cases)) {
    await run();
    const xs: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      await run();
      xs.push(performance.now() - t0);
    }
    xs.sort((a, b) => a - b);
    queries_ms[name] = Math.round(xs[3] * 10) / 10;
  }
  await t.close();
  return { rows, build_s, queries_ms, slowest_ms: Math.max(...Object.values(queries_ms)) };
}

// `node --import tsx scripts/bench/log-queries.ts [rows]` runs this part alone.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const r = await benchLogQueries(Number(process.argv[2] ?? 5_000_000));
  console.log(JSON.stringify(r, null, 2));
}
