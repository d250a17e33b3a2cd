import { sql } from 'kysely';
import { LogType } from '../../../shared/constants.ts';
import type { Db } from '../../db/types.ts';
import { hourOf, Level } from './log-hourly.repo.ts';

/*
 * The dashboard's prompt-cache figures (issue 29), read from the hourly log rollup: the prompt tokens
 * of answered calls (consume rows) and the part of them the upstream read from its prompt cache
 * (other.cache_tokens), per model (the MODEL level) or per channel (the CHANNEL level).
 */

export interface CacheShareRow {
  key: string | number;
  requests: number;
  promptTokens: number;
  cacheTokens: number;
}

/** Prompt and cache-read tokens per model or channel in the hours overlapping [start, end], most prompt tokens first. */
export async function cacheSharesBy(
  db: Db,
  by: 'model' | 'channel',
  start: number,
  end: number,
): Promise<CacheShareRow[]> {
  const column = by === 'model' ? 'model_name' : 'channel_id';
  const rows = await db
    .selectFrom('log_hourly')
    .select([
      `${column} as key`,
      sql<number | string>`sum(count)`.as('requests'),
      sql<number | string>`sum(prompt_tokens)`.as('prompt'),
      sql<number | string>`sum(cache_tokens)`.as('cached'),
    ])
    .where('level', '=', by === 'model' ? Level.MODEL : Level.CHANNEL)
    .where('type', '=', LogType.Consume)
    .where('hour', '>=', hourOf(start))
    .where('hour', '<=', end)
    .groupBy(column)
    .execute();
  return rows
    .map((r) => ({
      key: by === 'model' ? String(r.key) : Number(r.key),
      requests: Number(r.requests),
      promptTokens: Number(r.prompt),
      cacheTokens: Number(r.cached),
    }))
    .filter((r) => r.requests > 0)
    .sort((a, b) => b.promptTokens - a.promptTokens || b.requests - a.requests);
}
