import { DEFAULT_QUOTA_PER_UNIT } from '../../shared/constants.ts';
import { readString } from './storage.ts';

/*
 * The console's one way to show amounts. Quota is an integer; shown as currency it gets as
 * many decimals as it takes for the text to name exactly that quota (12 units at 500000/$
 * read "$0.000024", never "$0.01"), so no non-zero amount can pass for a different one.
 */

export interface QuotaDisplay {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/** The display settings the status object cached at start (spec §3 keys). */
export function quotaDisplay(): QuotaDisplay {
  const perUnit = Number(readString('quota_per_unit'));
  return {
    displayInCurrency: readString('display_in_currency') === 'true',
    quotaPerUnit: Number.isFinite(perUnit) && perUnit > 0 ? perUnit : DEFAULT_QUOTA_PER_UNIT,
  };
}

/** Past this many decimals a quota per unit that is no power-of-ten fraction would never end. */
const MAX_DECIMALS = 10;

const grouped = (n: number, min: number, max: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: true });

/** The fewest decimals (at least `min`) with which `quota / perUnit` turns back into `quota`. */
function decimalsFor(quota: number, perUnit: number, min: number): number {
  for (let d = min; d < MAX_DECIMALS; d++) {
    if (Math.round(Number((quota / perUnit).toFixed(d)) * perUnit) === quota) return d;
  }
  return MAX_DECIMALS;
}

/**
 * Quota as the operator chose to show it: currency ("$1.23", "$0.000024", "-$1.00") or the
 * quota itself as a whole number with separators ("615,000"). `minDecimals` only pads
 * (presets may ask for "$10"); precision is never lost to it.
 */
export function formatQuota(quota: number, display: QuotaDisplay, minDecimals = 2): string {
  if (!Number.isFinite(quota)) return '-';
  const q = Math.round(quota);
  if (!display.displayInCurrency) return grouped(q, 0, 0);
  const digits = decimalsFor(Math.abs(q), display.quotaPerUnit, minDecimals);
  return `${q < 0 ? '-' : ''}$${grouped(Math.abs(q) / display.quotaPerUnit, minDecimals, digits)}`;
}

/** The console-wide quota renderer every page uses (the site's display settings). */
export function renderQuota(quota: number, minDecimals = 2): string {
  return formatQuota(quota, quotaDisplay(), minDecimals);
}

/** A count (requests, tokens) as a whole number with separators: 12345 -> "12,345". */
export const formatCount = (n: number): string => grouped(Math.round(n), 0, 0);

const trim = (n: number) => String(Number(n.toFixed(1)));

/**
 * Short form for tight spots (axis ticks, badges): 12345 -> "12.3k", 2500000 -> "2.5M", 3e9 -> "3B";
 * k from 10,000 (accounts spec §9). Not for money: use formatQuota.
 */
export function renderNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e4) return `${trim(n / 1e3)}k`;
  return String(n);
}

/** Quota in dollars for forms that accept amounts (quota per unit from status). */
export const quotaToAmount = (quota: number, display = quotaDisplay()) => quota / display.quotaPerUnit;
export const amountToQuota = (amount: number, display = quotaDisplay()) => Math.round(amount * display.quotaPerUnit);

/** Unix seconds -> "2026-01-02 15:04:05" in the browser's zone; 0 means never. */
export function formatTimestamp(seconds: number): string {
  if (!seconds) return '-';
  const d = new Date(seconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
