import type { Db } from '../../db/types.ts';

/** Who owns a task (by the id clients see): an admin watching another user's video acts as its owner. */
export const taskOwner = async (db: Db, taskId: string): Promise<number | undefined> => {
  const r = await db.selectFrom('tasks').select('user_id').where('task_id', '=', taskId).executeTakeFirst();
  return r ? Number(r.user_id) : undefined;
};
