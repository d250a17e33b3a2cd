import type { Kysely } from 'kysely';

/*
 * channels.channel_info (issue 28): the per-key state of a multi-key channel, as new-api stores
 * it (is_multi_key, multi_key_size, multi_key_status_list {index: 2 manual | 3 auto}, the disabled
 * keys' reason and time, multi_key_polling_index, multi_key_mode "random" | "polling"). Before it,
 * a dead key was removed from the key column; from now on it is marked and kept.
 *
 * Existing multi-key channels (several keys in the key column) start with every key enabled, in
 * the selection mode their `setting` JSON named (`multi_key_mode: "polling"`, else random); the
 * setting is left as the operator wrote it. Single-key channels keep an empty channel_info.
 * Frozen in time: never import application code here.
 */

interface Row {
  id: number;
  key: string;
  setting: string | null;
}

/** The key column's keys as the relay read them at this version: lines, else commas; JSON is one key. */
function keysOf(raw: string): string[] {
  const text = raw.trim();
  if (text.startsWith('{')) return [text];
  return text
    .split(text.includes('\n') ? '\n' : ',')
    .map((k) => k.trim())
    .filter(Boolean);
}

function modeOf(setting: string | null): 'random' | 'polling' {
  try {
    const v = JSON.parse(setting ?? '') as { multi_key_mode?: unknown } | null;
    return v && typeof v === 'object' && v.multi_key_mode === 'polling' ? 'polling' : 'random';
  } catch {
    return 'random';
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('channel_info', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const d = db as unknown as Kysely<{ channels: Row & { channel_info: string } }>;
  const rows = await d.selectFrom('channels').select(['id', 'key', 'setting']).execute();
  for (const row of rows) {
    const size = keysOf(row.key).length;
    if (size < 2) continue;
    const info = {
      is_multi_key: true,
      multi_key_size: size,
      multi_key_status_list: {},
      multi_key_disabled_reason: {},
      multi_key_disabled_time: {},
      multi_key_polling_index: 0,
      multi_key_mode: modeOf(row.setting),
    };
    await d
      .updateTable('channels')
      .set({ channel_info: JSON.stringify(info) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('channel_info').execute();
}
