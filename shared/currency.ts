import type { OptionReader } from './options.ts';

/*
 * How the site shows money (new-api's general_setting.quota_display_type): in US dollars, in yuan at
 * USDExchangeRate yuan per dollar, in the operator's own currency (general_setting.custom_currency_symbol at
 * general_setting.custom_currency_exchange_rate per dollar), or as raw quota. Quota itself is always an
 * integer worth 1/QuotaPerUnit dollar; only its display changes. Shared by the console (client/lib/format.ts)
 * and the server's texts (server/domains/topup/quota-text.view.ts), so a mail and a page say the same amount.
 */

export const QUOTA_DISPLAY_TYPES = ['USD', 'CNY', 'TOKENS', 'CUSTOM'] as const;
export type QuotaDisplayType = (typeof QUOTA_DISPLAY_TYPES)[number];

/** What decides the display, as the option registry (or /api/status) holds it. */
export interface CurrencySettings {
  /** general_setting.quota_display_type. */
  type: QuotaDisplayType;
  /** The older switch DisplayInCurrencyEnabled: false means quota whatever the type says (see displayTypeOf). */
  displayInCurrency?: boolean;
  /** USDExchangeRate: yuan per dollar. */
  usdExchangeRate: number;
  customSymbol: string;
  customRate: number;
}

/** The currency an amount is shown in: its symbol and how many of it one US dollar is. */
export interface ShownCurrency {
  inCurrency: boolean;
  symbol: string;
  rate: number;
}

/**
 * The display type both settings agree on. An old console writes only DisplayInCurrencyEnabled and a new one
 * only quota_display_type; the options service mirrors each write into the other (options.rules.ts), and a
 * database that still disagrees (an upgrade from before the type existed, an import) shows quota when either
 * says quota, since that is what its operator last chose in the console that wrote it.
 */
export function displayTypeOf(s: Pick<CurrencySettings, 'type' | 'displayInCurrency'>): QuotaDisplayType {
  return s.displayInCurrency === false ? 'TOKENS' : s.type;
}

const positiveOr = (n: number, fallback: number) => (Number.isFinite(n) && n > 0 ? n : fallback);

/** The symbol and rate of a display type (new-api's GetCurrencySymbol and GetUsdToCurrencyRate). */
export function shownCurrency(s: CurrencySettings): ShownCurrency {
  switch (displayTypeOf(s)) {
    case 'CNY':
      return { inCurrency: true, symbol: '¥', rate: positiveOr(s.usdExchangeRate, 1) };
    case 'CUSTOM':
      return { inCurrency: true, symbol: s.customSymbol.trim() || '¤', rate: positiveOr(s.customRate, 1) };
    case 'TOKENS':
      // Where quota still needs a money counterpart (beside a quota input), it is dollars.
      return { inCurrency: false, symbol: '$', rate: 1 };
    default:
      return { inCurrency: true, symbol: '$', rate: 1 };
  }
}

/**
 * An amount in hundredths of its currency as whole cents or fen: `floor` for a balance (never more than can be
 * spent), `round` for a total. A hair of tolerance: 0.29 can compute as 28.999999999999996 hundredths.
 */
export const wholeCents = (hundredths: number, rounding: 'floor' | 'round'): number =>
  rounding === 'floor' ? Math.floor(hundredths + 1e-9) : Math.round(hundredths);

/** The amount of quota in the shown currency, unrounded. */
export const amountOfQuota = (quota: number, quotaPerUnit: number, c: ShownCurrency): number =>
  (quota / quotaPerUnit) * c.rate;

/** The settings as the option registry holds them (server side). */
export const currencySettingsOf = (o: OptionReader): CurrencySettings => ({
  type: o('general_setting.quota_display_type'),
  displayInCurrency: o('DisplayInCurrencyEnabled'),
  usdExchangeRate: o('USDExchangeRate'),
  customSymbol: o('general_setting.custom_currency_symbol'),
  customRate: o('general_setting.custom_currency_exchange_rate'),
});

/** The site's currency, from the option registry (server side). */
export const currencyOfOptions = (o: OptionReader): ShownCurrency => shownCurrency(currencySettingsOf(o));
