import type { TestApp } from '../../../test/app.ts';
import type { NewLog } from './logs.table.ts';
import { addToLogHourly } from './log-hourly.repo.ts';

/* Test data for the log read side: rows are inserted directly (the relay's log-writer owns real writes). */

export const nowS = () => Math.floor(Date.now() / 1000);

let seq = 0;

export async function insertLog(t: TestApp, row: Partial<NewLog> & { user_id: number; username: string }) {
  seq += 1;
  const values: NewLog = {
    created_at: nowS(),
    type: 2,
    content: `log ${seq}`,
    token_name: 'tok',
    model_name: 'gpt-4o-mini',
    quota: 100,
    prompt_tokens: 10,
    completion_tokens: 5,
    use_time: 1,
    is_stream: 0,
    channel_id: 0,
    token_id: 0,
    group: 'default',
    other: '{}',
    ...row,
  };
  // As the application writes log rows (insertLogs): with their hourly rollup, in one transaction.
  return t.deps.db.transaction().execute(async (trx) => {
    const r = await trx.insertInto('logs').values(values).returning('id').executeTakeFirstOrThrow();
    await addToLogHourly(trx, [values]);
    return Number(r.id);
  });
}

export async function insertChannel(t: TestApp, name: string) {
  const r = await t.deps.db
    .insertInto('channels')
    .values({ name, key: 'secret-key', models: 'gpt-4o-mini', group: 'default', status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertToken(t: TestApp, userId: number, key: string, name = 'tok') {
  const r = await t.deps.db
    .insertInto('tokens')
    .values({ user_id: userId, key, name, status: 1, expired_time: -1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertBucket(
  t: TestApp,
  b: { user_id: number; username: string; model_name: string; created_at: number; quota: number; count?: number },
) {
  await t.deps.db
    .insertInto('quota_data')
    .values({ ...b, count: b.count ?? 1, token_used: b.quota * 2 })
    .execute();
}
