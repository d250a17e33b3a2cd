import type { Db } from '../../db/types.ts';

/* users.setting reads and writes. No rules here. */

export const findSettingText = async (db: Db, userId: number) =>
  (await db.selectFrom('users').select('setting').where('id', '=', userId).executeTakeFirst())?.setting;

export async function saveSettingText(db: Db, userId: number, setting: string): Promise<void> {
  await db.updateTable('users').set({ setting }).where('id', '=', userId).execute();
}
