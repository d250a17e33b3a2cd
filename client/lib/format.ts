import { DEFAULT_QUOTA_PER_UNIT } from '../../shared/constants.ts';
import { QUOTA_DISPLAY_TYPES, type QuotaDisplayType, shownCurrency, wholeCents } from '../../shared/currency.ts';
import { readJson, readString, StorageKey } from './storage.ts';

/*
 * The console's one way to show amounts. Quota is an integer worth 1/QuotaPerUnit US dollar; the site shows
 * it in the currency its operator chose (shared/currency.ts: dollars, yuan at USDExchangeRate, a currency of
 * their own, or raw quota). Exact, it gets as many decimals as it takes for the text to name exactly that
 * quota (12 units at 500000/$ read "$0.000024", never "$0.01"), so no non-zero amount can pass for a
 * different one; at a glance (balances, totals, lists) it reads in whole cents or fen, the exact amount on hover.
 */

export interface QuotaDisplay {
  displayInCurrency: boolean;
  /** Quota per US dollar (QuotaPerUnit). */
  quotaPerUnit: number;
  /** The shown currency's symbol: '$', '¥' or the operator's own; '$' when absent. */
  symbol?: string;
  /** Units of the shown currency per US dollar (USDExchangeRate for yuan); 1 when absent. */
  rate?: number;
}

/** The /api/status fields the display is made of (the newer four are absent from an older cached copy). */
export interface DisplayStatusFields {
  display_in_currency: boolean;
  quota_per_unit: number;
  quota_display_type?: string;
  usd_exchange_rate?: number;
  custom_currency_symbol?: string;
  custom_currency_exchange_rate?: number;
}

/** The display a status object describes. */
export function displayOfStatus(status: DisplayStatusFields): QuotaDisplay {
  const perUnit = Number(status.quota_per_unit);
  const type = (QUOTA_DISPLAY_TYPES as readonly string[]).includes(status.quota_display_type ?? '')
    ? (status.quota_display_type as QuotaDisplayType)
    : 'USD';
  const c = shownCurrency({
    type,
    displayInCurrency: status.display_in_currency,
    usdExchangeRate: Number(status.usd_exchange_rate),
    customSymbol: status.custom_currency_symbol ?? '',
    customRate: Number(status.custom_currency_exchange_rate),
  });
  return {
    displayInCurrency: c.inCurrency,
    quotaPerUnit: Number.isFinite(perUnit) && perUnit > 0 ? perUnit : DEFAULT_QUOTA_PER_UNIT,
    symbol: c.symbol,
    rate: c.rate,
  };
}

/** The site's settings as the loaded status object gave them; null until it loaded. */
let loaded: QuotaDisplay | null = null;

/** The status object's display settings, set as it loads: before any page renders, unlike the cached keys. */
export function setQuotaDisplay(status: DisplayStatusFields): void {
  loaded = displayOfStatus(status);
}

/** The display settings: the loaded status object's, else those it cached at a previous start (spec §3 keys). */
export function quotaDisplay(): QuotaDisplay {
  if (loaded) return loaded;
  const cached = readJson<DisplayStatusFields>(StorageKey.status);
  if (cached) return displayOfStatus(cached);
  return displayOfStatus({
    display_in_currency: readString('display_in_currency') === 'true',
    quota_per_unit: Number(readString('quota_per_unit')),
  });
}

/** Quota per unit of the shown currency (QuotaPerUnit / rate): 68,493.15 quota per yuan at 7.3. */
export const perShown = (d: QuotaDisplay): number => d.quotaPerUnit / (d.rate && d.rate > 0 ? d.rate : 1);
/** The shown currency's symbol. */
export const currencySymbol = (d: QuotaDisplay): string => d.symbol ?? '$';

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
  const per = perShown(display);
  const digits = decimalsFor(Math.abs(q), per, minDecimals);
  return `${q < 0 ? '-' : ''}${currencySymbol(display)}${grouped(Math.abs(q) / per, minDecimals, digits)}`;
}

/** The console-wide quota renderer every page uses (the site's display settings). */
export function renderQuota(quota: number, minDecimals = 2): string {
  return formatQuota(quota, quotaDisplay(), minDecimals);
}

/**
 * Money at whole cents (or fen), for what a person reads at a glance (a balance, a total used): 4,868,338 quota at
 * 500,000 per $ is exactly $9.736676 and reads "$9.73"; at 7.3 yuan per dollar, ¥71.077735 reads "¥71.07". A balance rounds down (`'floor'`), so it never shows
 * more than can be spent; a total used rounds to the nearest cent ("<$0.01" when it is not zero but rounds to
 * it). The exact amount (formatQuota) goes beside
 * it, in a title: client/components/Money.tsx. Quota shown as quota points is exact already.
 */
export function formatCents(quota: number, display: QuotaDisplay, rounding: 'floor' | 'round'): string {
  if (!Number.isFinite(quota)) return '-';
  const q = Math.round(quota);
  if (!display.displayInCurrency) return grouped(q, 0, 0);
  const symbol = currencySymbol(display);
  const exact = (q * 100) / perShown(display);
  const cents = wholeCents(exact, rounding);
  // Something used that is under half a cent is not nothing.
  if (cents === 0 && rounding === 'round' && q !== 0) return `${q < 0 ? '-' : ''}<${symbol}0.01`;
  return `${cents < 0 ? '-' : ''}${symbol}${grouped(Math.abs(cents) / 100, 2, 2)}`;
}

/** formatCents at the site's display settings. */
export const renderCents = (quota: number, rounding: 'floor' | 'round'): string =>
  formatCents(quota, quotaDisplay(), rounding);

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

/*
 * Quota inputs: the user types in the display unit (the site's currency when it shows one, else
 * quota); the server gets the integer quota nearest to what was typed.
 */

/** Decimals a currency input accepts: enough for one quota unit (6 at 500,000 per $), at least 2. */
export const inputDecimals = (display: QuotaDisplay): number =>
  display.displayInCurrency ? Math.min(MAX_DECIMALS, Math.max(2, Math.ceil(Math.log10(perShown(display))))) : 0;

/** What a quota input shows for a quota: the digits formatQuota shows, without symbol or separators. */
export function quotaInputText(quota: number, display: QuotaDisplay): string {
  if (!Number.isFinite(quota)) return '';
  const q = Math.round(quota);
  if (!display.displayInCurrency) return String(q);
  const per = perShown(display);
  const text = (Math.abs(q) / per).toFixed(decimalsFor(Math.abs(q), per, 0));
  return `${q < 0 ? '-' : ''}${text}`;
}

/** The integer quota a typed amount in the display unit stands for (exact rounding); NaN when nothing is typed. */
export function quotaOfInput(typed: number | string, display: QuotaDisplay): number {
  const text =
    typeof typed === 'number' ? '' : String(typed).replace(/[,\s]/g, '').replace(currencySymbol(display), '');
  const n = typeof typed === 'number' ? typed : Number(text.replace(/^\$/, ''));
  if ((typeof typed === 'string' && typed.trim() === '') || !Number.isFinite(n)) return Number.NaN;
  return display.displayInCurrency ? Math.round(n * perShown(display)) : Math.round(n);
}

/**
 * The other unit of a quota, shown beside an input: the quota count when the input is in currency
 * ("2,500,000"), the currency when it is in quota ("$5.00").
 */
export function quotaCounterpart(quota: number, display: QuotaDisplay): string {
  return display.displayInCurrency ? formatCount(quota) : formatQuota(quota, { ...display, displayInCurrency: true });
}

/** Quota amounts for amounts of the shown currency (presets "$1, $10 …" or "¥10, ¥50 …"). */
export const quotaOfUnits = (units: number, display: QuotaDisplay = quotaDisplay()): number =>
  Math.round(units * perShown(display));

/**
 * A price set in US dollars (a model's price, a plan's price) in the shown currency, with exactly `decimals`
 * decimals: "$0.2700", "¥1.97"; dollars when the site shows quota. Callers pick one precision per column.
 */
export function formatUsd(usd: number, display: QuotaDisplay, decimals = 2): string {
  if (!Number.isFinite(usd)) return '-';
  const rate = display.displayInCurrency && display.rate && display.rate > 0 ? display.rate : 1;
  const symbol = display.displayInCurrency ? currencySymbol(display) : '$';
  const amount = usd * rate;
  const text = grouped(Math.abs(amount), decimals, decimals);
  return `${amount < 0 && Number(text.replace(/,/g, '')) !== 0 ? '-' : ''}${symbol}${text}`;
}

/** The fewest decimals (`min` to 6) that show every one of these US-dollar prices, converted, without rounding it away. */
export function decimalsForPrices(usds: readonly number[], display: QuotaDisplay, min = 2): number {
  const rate = display.displayInCurrency && display.rate && display.rate > 0 ? display.rate : 1;
  let d = min;
  for (const usd of usds) {
    const v = Math.abs(usd * rate);
    while (d < 6 && Math.abs(Number(v.toFixed(d)) - v) > v * 1e-9) d++;
  }
  return d;
}

/**
 * Money that is not quota (a channel's balance as its upstream reports it, a model's price): at
 * least two decimals, then every significant digit the number has (up to 10, which drops float
 * noise), so a small amount never reads as zero and two different amounts never read the same.
 * "$2.50", "$0.075", "$0.0001", "$199.999968", "-$3.00".
 */
export function formatMoney(amount: number, symbol = '$'): string {
  if (!Number.isFinite(amount)) return '-';
  const clean = Number(Math.abs(amount).toPrecision(10));
  return `${amount < 0 && clean !== 0 ? '-' : ''}${symbol}${grouped(clean, 2, 20)}`;
}

/** Unix seconds -> "2026-01-02 15:04:05" in the browser's zone; 0 means never. */
export function formatTimestamp(seconds: number): string {
  if (!seconds) return '-';
  const d = new Date(seconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** formatUsd at the site's display settings: a plan's price "$10.00", "¥73.00". */
export const renderUsd = (usd: number, decimals = 2): string => formatUsd(usd, quotaDisplay(), decimals);
