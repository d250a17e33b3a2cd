import type { Kysely } from 'kysely';

/*
 * AutomaticDisableChannelEnabled defaults to true from this version (issue 39): on a fresh install a
 * dead key is marked and skipped without anyone finding the switch. An install that already ran
 * (it has users or channels) and never stored the option ran with it off: 'false' is stored for it,
 * so the upgrade changes nothing it did. A stored value, either way, is the operator's and stays.
 * Frozen in time: never import application code here.
 */

const KEY = 'AutomaticDisableChannelEnabled';

interface Tables {
  options: { key: string; value: string };
  users: { id: number };
  channels: { id: number };
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Tables>;
  const stored = await db.selectFrom('options').select('key').where('key', '=', KEY).executeTakeFirst();
  if (stored) return;
  const user = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const channel = user ?? (await db.selectFrom('channels').select('id').limit(1).executeTakeFirst());
  if (!channel) return;
  await db.insertInto('options').values({ key: KEY, value: 'false' }).execute();
}

/** Nothing to undo: the stored 'false' is what the older version did without it. */
export async function down(): Promise<void> {}
