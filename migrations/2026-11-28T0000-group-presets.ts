import type { Kysely } from 'kysely';

/*
 * No invented groups (issue 39): the shipped GroupRatio, UserUsableGroups and TopupGroupRatio used to
 * preset "vip" and "svip" groups (new-api's defaults) that users were offered though no operator had
 * created them; a fresh install now ships only "default". A database already in use (set up, or with
 * users: an imported new-api database) keeps the groups it had: each of these options it never stored
 * is stored with the former default, so its users and tokens in "vip" keep working. Runs once; a fresh
 * database (no setup, no users) stores nothing. Frozen in time: never import application code here.
 */

const FORMER_DEFAULTS: Record<string, string> = {
  GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: JSON.stringify({ default: '默认分组', vip: 'vip分组' }),
  TopupGroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
};

type Db = Kysely<{
  options: { key: string; value: string };
  setups: { id: number };
  users: { id: number };
}>;

export async function up(db: Kysely<unknown>): Promise<void> {
  const d = db as unknown as Db;
  const setUp = await d.selectFrom('setups').select('id').limit(1).executeTakeFirst();
  const user = await d.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!setUp && !user) return;
  const stored = await d.selectFrom('options').select('key').where('key', 'in', Object.keys(FORMER_DEFAULTS)).execute();
  const have = new Set(stored.map((r) => r.key));
  const missing = Object.entries(FORMER_DEFAULTS).filter(([key]) => !have.has(key));
  if (missing.length === 0) return;
  await d
    .insertInto('options')
    .values(missing.map(([key, value]) => ({ key, value })))
    .execute();
}

export async function down(): Promise<void> {
  // The stored values are what the install was running with; leaving them in place changes nothing.
}
