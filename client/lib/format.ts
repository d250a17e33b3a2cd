import { DEFAULT_QUOTA_PER_UNIT } from '../../shared/constants.ts';
import { readString } from './storage.ts';

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

const trim = (n: number) => String(Number(n.toFixed(1)));

/** 12345 -> "12.3k", 2500000 -> "2.5M", 3e9 -> "3B"; k from 10,000 (accounts spec §9). */
export function renderNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e4) return `${trim(n / 1e3)}k`;
  return String(n);
}

/** Quota as the operator chose to show it: "$1.23" in currency mode, else the raw number. */
export function formatQuota(quota: number, display: QuotaDisplay, digits = 2): string {
  if (!display.displayInCurrency) return renderNumber(quota);
  const amount = quota / display.quotaPerUnit;
  const fixed = amount.toFixed(digits);
  // Tiny non-zero amounts would read "$0.00"; show the smallest visible unit instead.
  if (quota !== 0 && Number(fixed) === 0) return `${amount < 0 ? '-' : ''}$${(10 ** -digits).toFixed(digits)}`;
  return `${amount < 0 ? '-' : ''}$${Math.abs(amount).toFixed(digits)}`;
}

/** The console-wide quota renderer every page uses. */
export function renderQuota(quota: number, digits = 2): string {
  return formatQuota(quota, quotaDisplay(), digits);
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
