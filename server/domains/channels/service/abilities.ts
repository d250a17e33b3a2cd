import { splitList } from '../../../../shared/schemas/common.ts';
import { ChannelStatus } from '../../../../shared/constants.ts';
import type { Db } from '../../../db/types.ts';
import type { ChannelRow } from '../channels.table.ts';
import {
  type AbilityInsert,
  deleteAbilitiesOf,
  deleteAllAbilities,
  insertAbilities,
  listAllChannels,
  listChannelsByIds,
} from '../channels.repo.ts';

/*
 * Abilities are the relay's routing table: one row per (group, model, channel).
 * They are derived data, so every write rebuilds the affected channels' rows in
 * the same transaction as the channel change; a reader never sees them disagree.
 */

export function abilitiesOf(c: ChannelRow): AbilityInsert[] {
  const rows: AbilityInsert[] = [];
  for (const group of splitList(c.group))
    for (const model of splitList(c.models))
      rows.push({
        group,
        model,
        channel_id: c.id,
        enabled: c.status === ChannelStatus.Enabled ? 1 : 0,
        priority: c.priority,
        weight: c.weight,
        tag: c.tag,
      });
  return rows;
}

/** Rebuilds the abilities of these channels from their stored rows (call inside the write's transaction). */
export async function syncAbilities(trx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteAbilitiesOf(trx, ids);
  const channels = await listChannelsByIds(trx, ids);
  await insertAbilities(trx, channels.flatMap(abilitiesOf));
}

/** POST /api/channel/fix: throws the whole table away and derives it again; answers the channel count. */
export async function rebuildAllAbilities(trx: Db): Promise<number> {
  await deleteAllAbilities(trx);
  const channels = await listAllChannels(trx);
  await insertAbilities(trx, channels.flatMap(abilitiesOf));
  return channels.length;
}
