import { sql } from 'kysely';
import { LogType } from '../../../shared/constants.ts';
import type { Db } from '../../db/types.ts';
import { hourOf, Level } from './log-hourly.repo.ts';

/*
 * The dashboard's error rates (issue 28), read from the hourly log rollup (`log_hourly`, which counts
 * rows per type): successes are consume rows (type 2), failures error rows (type 6, one per failed
 * attempt, retried ones included), per model (its MODEL level) or per channel (its CHANNEL level).
 */

export interface ErrorRateRow {
  key: string | number;
  /** Consume rows: calls that were answered. */
  successes: number;
  /** Error rows: failed calls and failed attempts. */
  errors: number;
}

/** Successes and errors per model or channel in the hours overlapping [start, end], most errors first. */
export async function errorRatesBy(
  db: Db,
  by: 'model' | 'channel',
  start: number,
  end: number,
): Promise<ErrorRateRow[]> {
  const column = by === 'model' ? 'model_name' : 'channel_id';
  const rows = await db
    .selectFrom('log_hourly')
    .select([
      `${column} as key`,
      sql<number | string>`sum(case when type = ${LogType.Consume} then count else 0 end)`.as('successes'),
      sql<number | string>`sum(case when type = ${LogType.Error} then count else 0 end)`.as('errors'),
    ])
    .where('level', '=', by === 'model' ? Level.MODEL : Level.CHANNEL)
    .where('type', 'in', [LogType.Consume, LogType.Error])
    .where('hour', '>=', hourOf(start))
    .where('hour', '<=', end)
    .groupBy(column)
    .execute();
  return rows
    .map((r) => ({
      key: by === 'model' ? String(r.key) : Number(r.key),
      successes: Number(r.successes),
      errors: Number(r.errors),
    }))
    .filter((r) => r.successes + r.errors > 0)
    .sort((a, b) => b.errors - a.errors || b.successes - a.successes);
}
