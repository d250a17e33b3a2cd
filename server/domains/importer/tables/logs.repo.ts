import type { Db } from '../../../db/types.ts';
import type { NewLog } from '../../logs/logs.table.ts';
import { insertLogs } from '../../logs/insert-logs.repo.ts';
import type { Row, Skipped, TableImporter } from './types.ts';
import { bool01, int, str, unixSeconds } from './values.rules.ts';

/*
 * Usage logs, only with `--logs` (they can be millions of rows: the runner streams them in keyset batches). They
 * go through insertLogs, the one writer that keeps the hourly totals of the log page in step, so the imported
 * history shows in the charts too. Log ids are ours (new rows), so a re-run recognises a row already brought
 * over by what it says (time, user, type, model, token, quota, tokens) instead of its id.
 */

const json = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : str(v));

const mapLog = (r: Row): NewLog => ({
  user_id: int(r.user_id),
  created_at: unixSeconds(r.created_at) ?? 0,
  type: int(r.type),
  content: str(r.content),
  username: str(r.username),
  token_name: str(r.token_name),
  model_name: str(r.model_name),
  quota: int(r.quota),
  prompt_tokens: int(r.prompt_tokens),
  completion_tokens: int(r.completion_tokens),
  use_time: int(r.use_time),
  is_stream: bool01(r.is_stream),
  channel_id: int(r.channel_id ?? r.channel),
  token_id: int(r.token_id),
  group: str(r.group),
  ip: str(r.ip),
  request_id: str(r.request_id),
  other: json(r.other),
});

const keyOf = (
  l: Pick<
    NewLog,
    'created_at' | 'user_id' | 'type' | 'model_name' | 'token_name' | 'quota' | 'prompt_tokens' | 'completion_tokens'
  >,
) =>
  [l.created_at, l.user_id, l.type, l.model_name, l.token_name, l.quota, l.prompt_tokens, l.completion_tokens].join(
    '|',
  );

/** How many rows of each key the target already holds in the batch's time span. */
async function alreadyHere(trx: Db, logs: NewLog[]): Promise<Map<string, number>> {
  const times = logs.map((l) => l.created_at);
  const found = await trx
    .selectFrom('logs')
    .select([
      'created_at',
      'user_id',
      'type',
      'model_name',
      'token_name',
      'quota',
      'prompt_tokens',
      'completion_tokens',
    ])
    .where('created_at', '>=', Math.min(...times))
    .where('created_at', '<=', Math.max(...times))
    .where('user_id', 'in', [...new Set(logs.map((l) => l.user_id ?? 0))])
    .execute();
  const counts = new Map<string, number>();
  for (const f of found) {
    const k = keyOf({ ...f, created_at: Number(f.created_at), user_id: Number(f.user_id), quota: Number(f.quota) });
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

export const logsImporter: TableImporter = {
  name: 'logs',
  sourceTable: 'logs',
  optional: true,
  logs: true,
  batchSize: 2000,
  async importBatch(trx, rows) {
    const logs = rows.map(mapLog);
    if (!logs.length) return { imported: 0, skipped: [] };
    const here = await alreadyHere(trx, logs);
    const fresh: NewLog[] = [];
    const skipped: Skipped[] = [];
    logs.forEach((l, i) => {
      const k = keyOf(l as Parameters<typeof keyOf>[0]);
      const n = here.get(k) ?? 0;
      if (n > 0) {
        here.set(k, n - 1);
        skipped.push({ id: rows[i].id, reason: 'already imported' });
      } else fresh.push(l);
    });
    await insertLogs(trx, fresh);
    return { imported: fresh.length, skipped };
  },
};
