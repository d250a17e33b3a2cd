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
