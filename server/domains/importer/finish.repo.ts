import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { rebuildAllAbilities } from '../channels/service/abilities.ts';

/**
 * What an import ends with, in one transaction: the channels' abilities re-derived, and an imported site with a
 * root user marked set up (the wizard must not run again). Answers the number of abilities.
 */
export async function finishImport(trx: Db): Promise<number> {
  const root = await trx.selectFrom('users').select('id').where('role', '>=', 100).executeTakeFirst();
  const setup = await trx.selectFrom('setups').select('id').executeTakeFirst();
  if (root && !setup)
    await trx.insertInto('setups').values({ version: 'import', initialized_at: nowSeconds() }).execute();
  await rebuildAllAbilities(trx);
  const n = await trx
    .selectFrom('abilities')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n.n);
}

/** The site address this Switchyard is configured with (passkeys' RP id follows it). */
export async function siteAddressOf(db: Db): Promise<string> {
  const row = await db.selectFrom('options').select('value').where('key', '=', 'ServerAddress').executeTakeFirst();
  return row?.value ?? '';
}
