import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMigrator, migrateToLatest } from '../../db/index.ts';
import { migrations } from '../../../migrations/index.ts';

/*
 * Issue 28: a database written before channel_info existed (multi-key channels whose keys are
 * only the key column, the selection mode in the setting JSON) migrates with every key enabled,
 * the mode kept, and the keys untouched; the console's key list reads it at once.
 */

const MINE = '2026-11-26T0000-channel-info';
const names = Object.keys(migrations).sort();
const before = names[names.indexOf(MINE) - 1];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('channel_info migration', () => {
  it('gives existing multi-key channels every key enabled, keeps their mode and never changes a key', async () => {
    const db = t.deps.db;
    const migrator = await createMigrator(db);
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeUndefined();
    // Rows as the older version stored them: no channel_info column yet.
    const old = db as unknown as Kysely<{
      channels: { id?: number; name: string; key: string; models: string; setting: string | null; status: number };
    }>;
    const rows = [
      { name: 'lines', key: 'sk-line-1\nsk-line-2\nsk-line-3', models: 'm', setting: '{"multi_key_mode":"polling"}' },
      { name: 'commas', key: 'sk-comma-a,sk-comma-b', models: 'm', setting: null },
      { name: 'single', key: 'sk-only-one', models: 'm', setting: '{"force_format":true}' },
      { name: 'json', key: '{"type":"service_account","a":1,"b":2}', models: 'm', setting: null },
    ];
    const ids: number[] = [];
    for (const r of rows)
      ids.push(
        Number(
          (
            await old
              .insertInto('channels')
              .values({ ...r, status: 1 })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        ),
      );

    await migrateToLatest(db);

    const after = await db.selectFrom('channels').selectAll().where('id', 'in', ids).orderBy('id').execute();
    expect(after.map((r) => r.key)).toEqual(rows.map((r) => r.key));
    expect(after.map((r) => r.setting)).toEqual(rows.map((r) => r.setting));
    const [lines, commas, single, json] = after.map((r) => r.channel_info);
    expect(JSON.parse(lines)).toEqual({
      is_multi_key: true,
      multi_key_size: 3,
      multi_key_status_list: {},
      multi_key_disabled_reason: {},
      multi_key_disabled_time: {},
      multi_key_polling_index: 0,
      multi_key_mode: 'polling',
    });
    expect(JSON.parse(commas)).toMatchObject({ is_multi_key: true, multi_key_size: 2, multi_key_mode: 'random' });
    expect(single).toBe('');
    expect(json).toBe('');

    // The admin's key list and the channel answer read the migrated state.
    const list = await t.deps.services.channels.keyStatus(ids[0]);
    expect(list.keys.map((k) => [k.index, k.status, k.key_preview])).toEqual([
      [0, 1, 'sk-…-1'],
      [1, 1, 'sk-…-2'],
      [2, 1, 'sk-…-3'],
    ]);
    expect(list.enabled_count).toBe(3);
    const view = await t.deps.services.channels.get(ids[1]);
    expect(view.key).toBe('');
    expect(view.channel_info).toMatchObject({ is_multi_key: true, multi_key_size: 2, multi_key_status_list: {} });
  });
});
