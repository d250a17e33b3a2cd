import { type Insertable, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import { ChannelStatus } from '../../../shared/constants.ts';
import type { Database, Db } from '../../db/types.ts';
import type { ChannelRow, ChannelsTable } from './channels.table.ts';

/* Channel and ability queries; no rules here (they live in the service). */

export type NewChannel = Insertable<ChannelsTable>;
export type ChannelPatch = Updateable<ChannelsTable>;

export interface ChannelQuery {
  keyword?: string;
  model?: string;
  group?: string;
  idSort: boolean;
}

/** `%` and `_` in user text are matched literally. */
export const likePattern = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Priority first (the relay's preference order), or newest first with id_sort. */
const ordered =
  (idSort: boolean) =>
  <O>(qb: SelectQueryBuilder<Database, 'channels', O>) =>
    idSort ? qb.orderBy('id', 'desc') : qb.orderBy('priority', 'desc').orderBy('id', 'desc');

export const findChannelById = (db: Db, id: number) =>
  db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();

export const listChannelsByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('channels').selectAll().where('id', 'in', ids).execute();

export const listChannelsPage = (db: Db, offset: number, limit: number, idSort: boolean) =>
  db.selectFrom('channels').selectAll().$call(ordered(idSort)).offset(offset).limit(limit).execute();

export const countChannels = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('channels')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const listAllChannels = (db: Db) => db.selectFrom('channels').selectAll().orderBy('id').execute();

export function searchChannels(db: Db, q: ChannelQuery) {
  let query = db.selectFrom('channels').selectAll();
  if (q.keyword) {
    const kw = q.keyword;
    const asId = /^\d+$/.test(kw) ? Number(kw) : -1;
    query = query.where((e) =>
      e.or([e('id', '=', asId), sql<boolean>`${e.ref('name')} like ${likePattern(kw)} escape '\\'`, e('key', '=', kw)]),
    );
  }
  if (q.model) query = query.where(sql<boolean>`models like ${likePattern(q.model)} escape '\\'`);
  // The group column is a comma list: match one whole entry.
  if (q.group)
    query = query.where(
      sql<boolean>`(',' || ${sql.ref('group')} || ',') like ${likePattern(`,${q.group},`)} escape '\\'`,
    );
  return query.$call(ordered(q.idSort)).execute();
}

/** Distinct non-empty tags, sorted; used to page in tag mode. */
export const listTags = (db: Db) =>
  db
    .selectFrom('channels')
    .select('tag')
    .distinct()
    .where('tag', 'is not', null)
    .where('tag', '!=', '')
    .orderBy('tag')
    .execute()
    .then((rows) => rows.map((r) => r.tag as string));

export const listChannelsByTags = (db: Db, tags: string[], idSort: boolean) =>
  tags.length === 0
    ? Promise.resolve([] as ChannelRow[])
    : db.selectFrom('channels').selectAll().where('tag', 'in', tags).$call(ordered(idSort)).execute();

export const listUntaggedChannels = (db: Db, offset: number, limit: number, idSort: boolean) =>
  db
    .selectFrom('channels')
    .selectAll()
    .where((e) => e.or([e('tag', 'is', null), e('tag', '=', '')]))
    .$call(ordered(idSort))
    .offset(offset)
    .limit(limit)
    .execute();

export const countUntaggedChannels = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('channels')
        .select((e) => e.fn.countAll().as('n'))
        .where((e) => e.or([e('tag', 'is', null), e('tag', '=', '')]))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const insertChannel = async (db: Db, row: NewChannel) =>
  (await db.insertInto('channels').values(row).returning('id').executeTakeFirstOrThrow()).id;

export const updateChannel = (db: Db, id: number, patch: ChannelPatch) =>
  db.updateTable('channels').set(patch).where('id', '=', id).execute();

export const updateChannelsByIds = (db: Db, ids: number[], patch: ChannelPatch) =>
  db.updateTable('channels').set(patch).where('id', 'in', ids).execute();

export const deleteChannels = (db: Db, ids: number[]) =>
  db
    .deleteFrom('channels')
    .where('id', 'in', ids)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows));

/**
 * A multi-key channel's key state (channel_info, and the key list only on an admin's explicit key
 * deletion) written only when neither its keys nor their state changed since they were read
 * (`read`); false otherwise, so concurrent key updates retry instead of overwriting each other.
 */
export const updateKeyStateIf = async (
  db: Db,
  id: number,
  read: { key: string; channel_info: string },
  patch: { channel_info: string; key?: string },
) =>
  Number(
    (
      await db
        .updateTable('channels')
        .set(patch)
        .where('id', '=', id)
        .where('key', '=', read.key)
        .where('channel_info', '=', read.channel_info)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) === 1;

/**
 * An enabled channel marked auto-disabled with its reason (other_info); false when it was not enabled
 * (another request disabled it first). Its abilities are the caller's to disable, in the same transaction.
 */
export const autoDisableChannel = async (db: Db, id: number, otherInfo: string) =>
  Number(
    (
      await db
        .updateTable('channels')
        .set({ status: ChannelStatus.AutoDisabled, other_info: otherInfo })
        .where('id', '=', id)
        .where('status', '=', ChannelStatus.Enabled)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) === 1;

export const listDisabledChannelIds = (db: Db) =>
  db
    .selectFrom('channels')
    .select('id')
    .where('status', 'in', [2, 3])
    .execute()
    .then((rows) => rows.map((r) => r.id));

export const listChannelIdsByTag = (db: Db, tag: string) =>
  db
    .selectFrom('channels')
    .select('id')
    .where('tag', '=', tag)
    .execute()
    .then((rows) => rows.map((r) => r.id));

/** The relay's routing index (relay/routing-cache.ts): every enabled channel, whole. */
export const listEnabledChannels = (db: Db) =>
  db.selectFrom('channels').selectAll().where('status', '=', ChannelStatus.Enabled).execute();

/** Every model named by any channel (comma lists, split by the caller). */
export const listChannelModelLists = (db: Db) => db.selectFrom('channels').select(['models', 'type']).execute();

// Abilities ------------------------------------------------------------------------------

export interface AbilityInsert {
  group: string;
  model: string;
  channel_id: number;
  enabled: number;
  priority: number;
  weight: number;
  tag: string | null;
}

export const deleteAbilitiesOf = (db: Db, channelIds: number[]) =>
  channelIds.length === 0
    ? Promise.resolve()
    : db
        .deleteFrom('abilities')
        .where('channel_id', 'in', channelIds)
        .execute()
        .then(() => undefined);

export const deleteAllAbilities = (db: Db) => db.deleteFrom('abilities').execute();

/** Batched so a channel with thousands of models stays under SQLite's bound-variable limit. */
export async function insertAbilities(db: Db, rows: AbilityInsert[]) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('abilities')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** The relay's routing index: each enabled (group, model) -> channel route with its priority and weight. */
/** Every ability, enabled or not: the routing index serves the enabled ones and knows what is listed at all. */
export const listAbilities = (db: Db) =>
  db.selectFrom('abilities').select(['group', 'model', 'channel_id', 'priority', 'weight', 'enabled']).execute();

export const disableAbilitiesOf = (db: Db, channelId: number) =>
  db.updateTable('abilities').set({ enabled: 0 }).where('channel_id', '=', channelId).execute();

export const listEnabledAbilityModels = (db: Db) =>
  db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute()
    .then((rows) => rows.map((r) => r.model));

export const listAbilitiesOf = (db: Db, channelId: number) =>
  db
    .selectFrom('abilities')
    .selectAll()
    .where('channel_id', '=', channelId)
    .orderBy('group')
    .orderBy('model')
    .execute();
