import { isOptionKey, parseOption } from '../../../../shared/options.ts';
import type { Db } from '../../../db/types.ts';
import type { ImportContext, Row, TableImporter } from './types.ts';
import { str } from './values.rules.ts';

/*
 * Options: Switchyard keeps new-api's option names (docs options.md), so a setting is copied under its name, or
 * under today's name for one renamed since. A setting Switchyard does not have is left out and listed in the
 * report; a value Switchyard would refuse is left out with the reason, so the site starts on its default.
 */

/** Older names -> today's (one-api and early new-api). */
const RENAMED: Record<string, string> = {};

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

/** The keys each run saw, so `finish` knows which defaults the source never stored. */
const seen = new WeakMap<ImportContext, Set<string>>();

async function putOption(trx: Db, key: string, value: string, overwrite: boolean) {
  await trx
    .insertInto('options')
    .values({ key, value })
    .onConflict((oc) => (overwrite ? oc.column('key').doUpdateSet({ value }) : oc.column('key').doNothing()))
    .execute();
}

export const optionsImporter: TableImporter = {
  name: 'options',
  sourceTable: 'options',
  optional: false,
  orderBy: 'key',
  async importBatch(trx, rows: Row[], ctx) {
    const keys = seen.get(ctx) ?? new Set<string>();
    seen.set(ctx, keys);
    const result = { imported: 0, skipped: [] as { id: unknown; reason: string }[] };
    const unknown: string[] = [];
    for (const r of rows) {
      const sourceKey = str(r.key);
      const key = RENAMED[sourceKey] ?? sourceKey;
      const value = str(r.value);
      keys.add(key);
      if (!isOptionKey(key)) {
        unknown.push(sourceKey);
        result.skipped.push({ id: sourceKey, reason: 'Switchyard has no such setting' });
        continue;
      }
      const parsed = parseOption(key, value);
      if (!parsed.ok) {
        result.skipped.push({ id: sourceKey, reason: `value refused (${parsed.message}): the default stays` });
        continue;
      }
      await putOption(trx, key, value, true);
      result.imported++;
    }
    if (unknown.length) ctx.note(`options Switchyard does not have, left out: ${unknown.join(', ')}`);
    return result;
  },
  async finish(trx, ctx) {
    // The imported site keeps what it ran with (issue 39), unless this install already chose.
    const keys = seen.get(ctx) ?? new Set<string>();
    for (const [key, value] of Object.entries(NEW_API_DEFAULTS))
      if (!keys.has(key)) await putOption(trx, key, value, false);
  },
};
