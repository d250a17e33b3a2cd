import { nowSeconds } from '../../../db/time.ts';

/*
 * The mappers' small conversions from a source row (normalised by the source, see sources/normalise.rules.ts)
 * to Switchyard's columns: integers stay integers, text stays text, GORM's times become unix seconds.
 */

export const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
export const strOrNull = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
export const int = (v: unknown, d = 0) => (v === null || v === undefined || v === '' ? d : Math.trunc(Number(v)) || 0);
export const num = (v: unknown) => Number(v ?? 0) || 0;
export const bool01 = (v: unknown) => (v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0);

/** A GORM datetime (Date, ISO or MySQL text) or unix seconds, as unix seconds; null stays null. */
export function unixSeconds(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) return Math.floor(v.getTime() / 1000);
  if (typeof v === 'number') return v > 1e11 ? Math.floor(v / 1000) : Math.floor(v);
  const text = String(v);
  if (/^\d+$/.test(text)) return unixSeconds(Number(text));
  // MySQL's `2025-06-01 10:00:00` has no zone: GORM writes UTC unless loc= says otherwise.
  const t = Date.parse(
    /^\d{4}-\d\d-\d\d \d/.test(text) && !/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? `${text.replace(' ', 'T')}Z` : text,
  );
  return Number.isFinite(t) ? Math.floor(t / 1000) : null;
}

/** GORM's soft delete: `deleted_at` set means deleted; a value we cannot read still counts as deleted. */
export const deletedAt = (v: unknown) =>
  v === null || v === undefined || v === '' ? null : (unixSeconds(v) ?? nowSeconds());
