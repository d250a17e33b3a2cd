import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * The hourly log rollup (`log_hourly`, 2026-11-23T0100) also sums prompt tokens and cache-read tokens,
 * so the dashboard shows the share of prompt tokens read from upstream prompt caches per model and
 * per channel (issue 29) without reading the log rows. A row's cache-read tokens are its `other`
 * JSON's `cache_tokens` as the relay writes it: the digits right after the first `"cache_tokens":`
 * in the text, at most 18, 0 when there are none (the same rule in SQLite, PostgreSQL and
 * server/domains/logs/log-hourly.repo.ts, so a row later deleted takes out exactly what it added).
 * Every bucket is summed again from the log rows (the rollup is exact, so count, quota and tokens come
 * out as they were). Frozen in time: never import application code here.
 */

const LEVELS: Record<number, string[]> = {
  0: ['group'],
  1: ['user_id', 'username', 'token_name', 'group'],
  2: ['model_name', 'group'],
  3: ['channel_id', 'group'],
  4: ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group'],
};
const DIMS = ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group'];

const sqliteCacheTokens = `case when instr(other, '"cache_tokens":') > 0
  and substr(other, instr(other, '"cache_tokens":') + 15, 1) between '0' and '9'
  then cast(substr(other, instr(other, '"cache_tokens":') + 15, 18) as integer) else 0 end`;
const postgresCacheTokens = `coalesce(nullif(substring(other from '"cache_tokens":([0-9]{0,18})'), '')::bigint, 0)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('log_hourly')
    .addColumn('prompt_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('log_hourly')
    .addColumn('cache_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const cache = db.getExecutor().adapter instanceof PostgresAdapter ? postgresCacheTokens : sqliteCacheTokens;
  await sql`delete from log_hourly`.execute(db);
  const hour = 'created_at - (((created_at % 3600) + 3600) % 3600)';
  for (const [level, kept] of Object.entries(LEVELS)) {
    const q = (c: string) => `"${c}"`;
    const select = DIMS.map((c) => (kept.includes(c) ? q(c) : c.endsWith('_id') ? '0' : "''")).join(', ');
    const groupBy = ['h', 'type', ...kept.map(q)].join(', ');
    await sql`
      insert into log_hourly (level, hour, type, user_id, username, token_name, model_name, channel_id, "group",
        count, quota, tokens, prompt_tokens, cache_tokens)
      select ${sql.raw(level)}, h, type, ${sql.raw(select)}, count(*), sum(quota),
        sum(prompt_tokens + completion_tokens), sum(prompt_tokens), sum(ct)
      from (select ${sql.raw(hour)} as h, ${sql.raw(cache)} as ct, logs.* from logs) l
      group by ${sql.raw(groupBy)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('log_hourly').dropColumn('cache_tokens').execute();
  await db.schema.alterTable('log_hourly').dropColumn('prompt_tokens').execute();
}
