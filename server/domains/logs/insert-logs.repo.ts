import { inTransaction } from '../../db/in-transaction.ts';
import { preparedInsert } from '../../db/prepared.ts';
import type { Db } from '../../db/types.ts';
import type { NewLog } from './logs.table.ts';
import { addToLogHourly } from './log-hourly.repo.ts';

/** A log row with every column (the columns' defaults where the caller gave none), so one statement fits all. */
type FullLog = Required<Omit<NewLog, 'id'>>;
const LOG_DEFAULTS: FullLog = {
  user_id: 0,
  created_at: 0,
  type: 0,
  content: '',
  username: '',
  token_name: '',
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  token_id: 0,
  group: '',
  ip: '',
  request_id: '',
  other: '',
};
const LOG_COLUMNS = Object.keys(LOG_DEFAULTS) as (keyof FullLog)[];
function full(r: NewLog): FullLog {
  const row = { ...LOG_DEFAULTS };
  // Only absent values take the default (as an insert without the column would); null still reaches the database.
  for (const c of LOG_COLUMNS) if (r[c] !== undefined) (row as Record<string, unknown>)[c] = r[c];
  return row;
}
const insertLogRows = preparedInsert<FullLog>((db, rows) => db.insertInto('logs').values(rows), LOG_COLUMNS);

/**
 * The one way to write log rows: the rows and their hourly buckets, in one transaction
 * (the caller's, when `db` is one). Chunked under SQLite's bound-parameter limit.
 */
export async function insertLogs(db: Db, rows: readonly NewLog[]): Promise<void> {
  if (rows.length === 0) return;
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += 50) await insertLogRows(trx, rows.slice(i, i + 50).map(full));
    await addToLogHourly(trx, rows);
  });
}
