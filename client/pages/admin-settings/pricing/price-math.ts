/*
 * The pricing editor's arithmetic (spec constants): price per 1M tokens = ratio × 2,
 * ratio = price ÷ 2, completion ratio = output price ÷ input price. Results are
 * rounded to 6 decimals so a round trip does not show float noise.
 */

const round = (n: number) => Number(n.toFixed(6));

export const pricePerMillion = (ratio: number) => round(ratio * 2);
export const ratioFromPrice = (pricePerM: number) => round(pricePerM / 2);
export const outputPrice = (inputPricePerM: number, completionRatio: number) => round(inputPricePerM * completionRatio);

/** Undefined when the input price is 0: a completion ratio cannot be derived from it. */
export function completionRatioFromPrices(inputPricePerM: number, outputPricePerM: number): number | undefined {
  if (!(inputPricePerM > 0)) return undefined;
  return round(outputPricePerM / inputPricePerM);
}

/** A number typed by a person: "" and non-numbers are undefined. */
export function parseNumber(text: string | number | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export interface PriceRow {
  name: string;
  /** Fixed price per call (USD); when set, ratios do not apply. */
  price?: number;
  ratio?: number;
  completionRatio?: number;
  /** A video model's fixed price: per second of video (default) or per video (VideoPriceUnit). */
  videoUnit?: VideoUnit;
}

type NumMap = Record<string, number>;

function parseMap(text: string): NumMap {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === 'number')) as NumMap;
    }
  } catch {
    // The JSON tab shows the error; the visual editor shows what it can read.
  }
  return {};
}

/** One row per model named in any of the three maps, sorted by name. */
export function rowsFromMaps(priceText: string, ratioText: string, completionText: string): PriceRow[] {
  const price = parseMap(priceText);
  const ratio = parseMap(ratioText);
  const completion = parseMap(completionText);
  const names = new Set([...Object.keys(price), ...Object.keys(ratio), ...Object.keys(completion)]);
  return [...names].sort().map((name) => ({
    name,
    price: price[name],
    ratio: ratio[name],
    completionRatio: completion[name],
  }));
}

/** Back to the three option values (JSON text, 2-space indented like the JSON tab). */
export function mapsFromRows(rows: PriceRow[]): { ModelPrice: string; ModelRatio: string; CompletionRatio: string } {
  const price: NumMap = {};
  const ratio: NumMap = {};
  const completion: NumMap = {};
  for (const r of rows) {
    if (r.price !== undefined) price[r.name] = r.price;
    else if (r.ratio !== undefined) ratio[r.name] = r.ratio;
    if (r.price === undefined && r.completionRatio !== undefined) completion[r.name] = r.completionRatio;
  }
  const text = (m: NumMap) => JSON.stringify(m, null, 2);
  return { ModelPrice: text(price), ModelRatio: text(ratio), CompletionRatio: text(completion) };
}

/** Replaces (or adds) one row; the other rows keep their order. */
export function upsertRow(rows: PriceRow[], row: PriceRow, replacing?: string): PriceRow[] {
  const out = rows.filter((r) => r.name !== (replacing ?? row.name) && r.name !== row.name);
  return [...out, row];
}

/** VideoPriceUnit's values: a video model's ModelPrice per second of video, or per video ("job"). */
export type VideoUnit = 'second' | 'job';

/** The VideoPriceUnit JSON text as a map; unreadable text or values are left out (the JSON tab shows them). */
export function parseVideoUnits(text: string | undefined): Record<string, VideoUnit> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.entries(v).filter((e): e is [string, VideoUnit] => e[1] === 'second' || e[1] === 'job'),
      );
  } catch {
    // As parseMap.
  }
  return {};
}

/** The table's rows with each fixed-price row's video unit from VideoPriceUnit. */
export const withVideoUnits = (rows: PriceRow[], units: Record<string, VideoUnit>): PriceRow[] =>
  rows.map((r) => (r.price !== undefined && Object.hasOwn(units, r.name) ? { ...r, videoUnit: units[r.name] } : r));

/**
 * VideoPriceUnit after an edit of the table (`before` -> `next`): each fixed-price row's unit; a row
 * deleted or moved to per-token pricing loses its entry; a model named only in the JSON keeps its own.
 */
export function videoUnitsText(before: PriceRow[], next: PriceRow[], text: string | undefined): string {
  const units = parseVideoUnits(text);
  const inTable = new Set([...before, ...next].map((r) => r.name));
  const out: Record<string, VideoUnit> = {};
  for (const [model, unit] of Object.entries(units)) if (!inTable.has(model)) out[model] = unit;
  for (const r of next) if (r.price !== undefined && r.videoUnit) out[r.name] = r.videoUnit;
  const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify(sorted, null, 2);
}
