import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { nowSeconds } from '../../db/time.ts';
import type { Database, Db } from '../../db/types.ts';
import { rebuildAllAbilities } from '../channels/service/abilities.ts';
import { type Flavor, oneApiTypeMap, openSource, type SourceDb } from './source.repo.ts';

/*
 * Imports a new-api / one-api SQLite database: users (password hashes kept, so
 * logins keep working), tokens (keys unchanged, so clients keep working),
 * channels (abilities re-derived), options (groups and prices included),
 * redemption codes and top-up records. Rows are upserted by id, so running it
 * twice changes nothing the second time. Logs are not copied.
 */

export interface TableReport {
  inserted: number;
  updated: number;
  skipped: { id: unknown; reason: string }[];
}

export interface ImportReport {
  flavor: Flavor;
  tables: Record<string, TableReport>;
  abilities: number;
}

type Row = Record<string, unknown>;

/**
 * new-api's (and one-api's) values of options whose defaults differ from ours (issue 39): they never store
 * an option left unchanged, so a source that never saved one of these ran with this value.
 */
const NEW_API_DEFAULTS: Record<string, string> = {
  // Their default is off; ours is on for new installs.
  AutomaticDisableChannelEnabled: 'false',
  // Their vip/svip group presets; ours ship "default" only, and the imported users and tokens keep their groups.
  GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: JSON.stringify({ default: '默认分组', vip: 'vip分组' }),
  TopupGroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
};
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const strOrNull = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const int = (v: unknown, d = 0) => (v === null || v === undefined || v === '' ? d : Math.trunc(Number(v)) || 0);
const bool01 = (v: unknown) => (v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0);
/** gorm keeps deleted_at as a datetime text; we keep unix seconds. */
const deletedAt = (v: unknown) => {
  if (v === null || v === undefined || v === '') return null;
  const t = Date.parse(String(v));
  return Number.isFinite(t) ? Math.floor(t / 1000) : nowSeconds();
};

const mapUser = (r: Row) => ({
  id: int(r.id),
  username: str(r.username),
  password: str(r.password),
  display_name: str(r.display_name),
  role: int(r.role, 1),
  status: int(r.status, 1),
  email: str(r.email),
  github_id: str(r.github_id),
  oidc_id: str(r.oidc_id),
  wechat_id: str(r.wechat_id),
  telegram_id: str(r.telegram_id),
  linux_do_id: str(r.linux_do_id),
  access_token: strOrNull(r.access_token),
  quota: int(r.quota),
  used_quota: int(r.used_quota),
  request_count: int(r.request_count),
  group: str(r.group) || 'default',
  aff_code: strOrNull(r.aff_code),
  aff_count: int(r.aff_count),
  aff_quota: int(r.aff_quota),
  aff_history_quota: int(r.aff_history_quota),
  inviter_id: int(r.inviter_id),
  setting: str(r.setting),
  deleted_at: deletedAt(r.deleted_at),
});

const mapToken = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  key: str(r.key),
  status: int(r.status, 1),
  name: str(r.name),
  created_time: int(r.created_time),
  accessed_time: int(r.accessed_time),
  expired_time: int(r.expired_time, -1),
  remain_quota: int(r.remain_quota),
  unlimited_quota: bool01(r.unlimited_quota),
  used_quota: int(r.used_quota),
  model_limits_enabled: bool01(r.model_limits_enabled),
  model_limits: str(r.model_limits),
  allow_ips: str(r.allow_ips),
  group: str(r.group),
  deleted_at: deletedAt(r.deleted_at),
});

const mapChannel = (flavor: Flavor) => (r: Row) => {
  let type = int(r.type, 1);
  let baseUrl = strOrNull(r.base_url);
  const remap = flavor === 'one-api' ? oneApiTypeMap[type] : undefined;
  if (remap) {
    type = remap.type;
    baseUrl = baseUrl ?? remap.baseUrl ?? null;
  }
  return {
    id: int(r.id),
    type,
    key: str(r.key),
    openai_organization: strOrNull(r.openai_organization),
    test_model: strOrNull(r.test_model),
    status: int(r.status, 1),
    name: str(r.name),
    weight: Math.max(0, int(r.weight)),
    created_time: int(r.created_time),
    test_time: int(r.test_time),
    response_time: int(r.response_time),
    base_url: baseUrl,
    other: str(r.other),
    balance: Number(r.balance ?? 0) || 0,
    balance_updated_time: int(r.balance_updated_time),
    models: str(r.models),
    group: str(r.group) || 'default',
    used_quota: int(r.used_quota),
    model_mapping: strOrNull(r.model_mapping),
    status_code_mapping: strOrNull(r.status_code_mapping),
    priority: int(r.priority),
    auto_ban: r.auto_ban === null || r.auto_ban === undefined ? 1 : bool01(r.auto_ban),
    other_info: str(r.other_info),
    tag: strOrNull(r.tag),
    setting: strOrNull(r.setting),
    param_override: strOrNull(r.param_override),
  };
};

const mapRedemption = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  key: str(r.key),
  status: int(r.status, 1),
  name: str(r.name),
  quota: int(r.quota),
  created_time: int(r.created_time),
  redeemed_time: int(r.redeemed_time),
  used_user_id: int(r.used_user_id),
  deleted_at: deletedAt(r.deleted_at),
});

const mapTopUp = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  amount: int(r.amount),
  money: Number(r.money ?? 0) || 0,
  trade_no: str(r.trade_no),
  create_time: int(r.create_time),
  status: str(r.status) || 'pending',
});

type IdTable = 'users' | 'tokens' | 'channels' | 'redemptions' | 'top_ups';

/**
 * Upserts rows by id. A row whose unique column (username, key, trade_no) already
 * belongs to a different row here is skipped and reported rather than overwriting it.
 */
async function upsertById<T extends { id: number }>(
  trx: Db,
  table: IdTable,
  rows: T[],
  unique?: keyof T & string,
): Promise<TableReport> {
  const report: TableReport = { inserted: 0, updated: 0, skipped: [] };
  const existing = await trx
    .selectFrom(table)
    .select(unique ? ['id', sql.ref<string>(unique).as('u')] : ['id', sql<string>`''`.as('u')])
    .execute();
  const ids = new Set(existing.map((e) => Number(e.id)));
  const owners = new Map(existing.map((e) => [String(e.u), Number(e.id)]));
  for (const row of rows) {
    if (unique) {
      const owner = owners.get(String(row[unique]));
      if (owner !== undefined && owner !== row.id) {
        report.skipped.push({ id: row.id, reason: `${unique} already used by #${owner}` });
        continue;
      }
    }
    const { id, ...rest } = row;
    if (ids.has(id)) {
      await trx
        .updateTable(table)
        .set(rest as never)
        .where('id', '=', id)
        .execute();
      report.updated++;
    } else {
      await trx
        .insertInto(table)
        .values(row as never)
        .execute();
      report.inserted++;
    }
  }
  return report;
}

/** PostgreSQL sequences do not move when ids are given explicitly; move them past the imported ids. */
async function fixSequences(trx: Db, tables: IdTable[]) {
  for (const t of tables) {
    await sql`select setval(pg_get_serial_sequence(${t}, 'id'), greatest((select coalesce(max(id), 0) from ${sql.table(t)}), 1))`.execute(
      trx,
    );
  }
}

export async function importDatabase(db: Kysely<Database>, file: string, flavor?: Flavor): Promise<ImportReport> {
  const source: SourceDb = openSource(file, flavor);
  try {
    return await db.transaction().execute(async (trx) => {
      const tables: Record<string, TableReport> = {};
      tables.users = await upsertById(trx, 'users', source.rows('users').map(mapUser), 'username');
      tables.tokens = await upsertById(trx, 'tokens', source.rows('tokens').map(mapToken), 'key');
      tables.channels = await upsertById(trx, 'channels', source.rows('channels').map(mapChannel(source.flavor)));
      tables.redemptions = await upsertById(trx, 'redemptions', source.rows('redemptions').map(mapRedemption), 'key');
      tables.top_ups = await upsertById(trx, 'top_ups', source.rows('top_ups').map(mapTopUp), 'trade_no');

      const options = source.rows('options');
      for (const o of options) {
        const key = str(o.key);
        const value = str(o.value);
        await trx
          .insertInto('options')
          .values({ key, value })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
          .execute();
      }
      tables.options = { inserted: options.length, updated: 0, skipped: [] };
      // The imported site keeps what it ran with (issue 39), unless this install already chose.
      const imported = new Set(options.map((o) => str(o.key)));
      for (const [key, value] of Object.entries(NEW_API_DEFAULTS))
        if (!imported.has(key))
          await trx
            .insertInto('options')
            .values({ key, value })
            .onConflict((oc) => oc.column('key').doNothing())
            .execute();

      if (db.getExecutor().adapter instanceof PostgresAdapter)
        await fixSequences(trx, ['users', 'tokens', 'channels', 'redemptions', 'top_ups']);

      // An imported site with a root user is set up already; the wizard must not run again.
      const root = await trx.selectFrom('users').select('id').where('role', '>=', 100).executeTakeFirst();
      const setup = await trx.selectFrom('setups').select('id').executeTakeFirst();
      if (root && !setup) {
        await trx.insertInto('setups').values({ version: 'import', initialized_at: nowSeconds() }).execute();
      }

      await rebuildAllAbilities(trx);
      const abilities = await trx
        .selectFrom('abilities')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { flavor: source.flavor, tables, abilities: Number(abilities.n) };
    });
  } finally {
    source.close();
  }
}
