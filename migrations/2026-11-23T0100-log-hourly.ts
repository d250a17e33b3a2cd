import { type Kysely, sql } from 'kysely';

/*
 * Indexes and an hourly rollup for the log page on big log tables (issue #9).
 *
 * `log_hourly` counts log rows (and sums their quota) per hour and type at a few
 * levels of detail, so the page total and the stat box add up a few thousand rows
 * whatever the range. A level keeps some of the filter columns and stores 0 / '' in
 * the others (the `level` column keeps the levels apart). The application keeps it
 * exact: every insert or delete of a log row changes its buckets in the same
 * transaction. The levels (also in server/domains/logs/log-hourly.repo.ts):
 *   0 group, 1 user_id + username + token_name + group, 2 model_name + group,
 *   3 channel_id + group, 4 all of them.
 * The hour of a row is created_at rounded down to a multiple of 3600 (floor, also
 * for negative times). The migration sums the rows that already exist.
 * Frozen in time: never import application code here.
 */

const KEY = [
  'level',
  'hour',
  'type',
  'user_id',
  'username',
  'token_name',
  'model_name',
  'channel_id',
  'group',
] as const;

/** Per level, the columns it keeps; the others are stored as 0 / ''. */
const LEVELS: Record<number, string[]> = {
  0: ['group'],
  1: ['user_id', 'username', 'token_name', 'group'],
  2: ['model_name', 'group'],
  3: ['channel_id', 'group'],
  4: ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group'],
};
const DIMS = ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group'];
const NONE: Record<string, string> = { user_id: '0', channel_id: '0' };

export async function up(db: Kysely<unknown>): Promise<void> {
  // The newest rows of one user name, channel or token name (and the partial hours at the ends
  // of a range) are found on an index instead of walking the whole time range.
  await db.schema.createIndex('logs_username_created_idx').on('logs').columns(['username', 'created_at']).execute();
  await db.schema.dropIndex('logs_channel_idx').execute();
  await db.schema.createIndex('logs_channel_created_idx').on('logs').columns(['channel_id', 'created_at']).execute();
  await db.schema.createIndex('logs_token_name_created_idx').on('logs').columns(['token_name', 'created_at']).execute();

  await db.schema
    .createTable('log_hourly')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('token_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('channel_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // The upsert key; its (level, hour) prefix serves the unfiltered, model and time-only sums.
  // The other three find one user's, user name's or channel's buckets.
  await db.schema
    .createIndex('log_hourly_key_uq')
    .on('log_hourly')
    .columns([...KEY])
    .unique()
    .execute();
  await db.schema.createIndex('log_hourly_user_idx').on('log_hourly').columns(['level', 'user_id', 'hour']).execute();
  await db.schema
    .createIndex('log_hourly_username_idx')
    .on('log_hourly')
    .columns(['level', 'username', 'hour'])
    .execute();
  await db.schema
    .createIndex('log_hourly_channel_idx')
    .on('log_hourly')
    .columns(['level', 'channel_id', 'hour'])
    .execute();

  const hour = sql.raw('created_at - (((created_at % 3600) + 3600) % 3600)');
  for (const [level, kept] of Object.entries(LEVELS)) {
    const q = (c: string) => `"${c}"`;
    const select = DIMS.map((c) => (kept.includes(c) ? q(c) : (NONE[c] ?? "''"))).join(', ');
    const groupBy = ['h', 'type', ...kept.map(q)].join(', ');
    await sql`
      insert into log_hourly (level, hour, type, user_id, username, token_name, model_name, channel_id, "group",
        count, quota, tokens)
      select ${sql.raw(level)}, h, type, ${sql.raw(select)}, count(*), sum(quota),
        sum(prompt_tokens + completion_tokens)
      from (select ${hour} as h, logs.* from logs) l
      group by ${sql.raw(groupBy)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('log_hourly').ifExists().execute();
  await db.schema.dropIndex('logs_token_name_created_idx').ifExists().execute();
  await db.schema.dropIndex('logs_channel_created_idx').ifExists().execute();
  await db.schema.dropIndex('logs_username_created_idx').ifExists().execute();
  await db.schema.createIndex('logs_channel_idx').on('logs').column('channel_id').execute();
}
