import type { Row } from './source.repo.ts';

/*
 * One shape of values whatever the driver (issue 42): mysql2 answers DECIMAL as text, BIGINT as number (or text
 * past 2^53 with bigNumberStrings), JSON parsed on MySQL 8 but text on MariaDB, DATETIME as Date; pg answers
 * BIGINT and NUMERIC as text. Mappers then see numbers as numbers, decimals as text, datetimes as Date or text,
 * JSON as text, booleans as 0/1.
 */

export interface ColumnKinds {
  /** Integer columns a driver answered as text (PostgreSQL bigint): turned back into numbers. */
  integers?: Set<string>;
  /** JSON columns: parsed values stringified back. */
  json?: Set<string>;
}

export function normaliseValue(value: unknown, column: string, kinds: ColumnKinds = {}): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value instanceof Date) return value;
  if (typeof value === 'string' && kinds.integers?.has(column) && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

export function normaliseRow(row: Row, kinds?: ColumnKinds): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = normaliseValue(v, k, kinds);
  return out;
}
