import type { Db } from '../../db/types.ts';

/** Distinct (model, group) pairs that an enabled channel serves: what the pricing page may list. */
export const listEnabledModelGroups = (db: Db) =>
  db
    .selectFrom('abilities')
    .select(['model', 'group'])
    .distinct()
    .where('enabled', '=', 1)
    .orderBy('model')
    .orderBy('group')
    .execute();

/** Distinct (model, channel) pairs of enabled abilities, with the channel's name: who serves what. */
export const listEnabledModelChannels = (db: Db) =>
  db
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select(['abilities.model as model', 'channels.id as channelId', 'channels.name as channelName'])
    .distinct()
    .where('abilities.enabled', '=', 1)
    .orderBy('abilities.model')
    .orderBy('channels.id')
    .execute();

/** A user's stored settings JSON (the pricing page reads "accept models without a price" from it). */
export const findUserSetting = async (db: Db, id: number): Promise<string | null | undefined> =>
  (await db.selectFrom('users').select('setting').where('id', '=', id).executeTakeFirst())?.setting;

/** Distinct models an enabled channel of one of `types` serves (the video-only types: their models are priced per second). */
export const listEnabledModelsOfTypes = async (db: Db, types: readonly number[]): Promise<string[]> =>
  types.length === 0
    ? []
    : (
        await db
          .selectFrom('abilities')
          .innerJoin('channels', 'channels.id', 'abilities.channel_id')
          .select('abilities.model as model')
          .distinct()
          .where('abilities.enabled', '=', 1)
          .where('channels.type', 'in', [...types])
          .orderBy('abilities.model')
          .execute()
      ).map((r) => r.model);
