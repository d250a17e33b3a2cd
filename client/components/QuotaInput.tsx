import { useLingui } from '@lingui/react/macro';
import { Chip, Group, NumberInput, type NumberInputProps, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import {
  currencySymbol,
  displayOfStatus,
  formatQuota,
  inputDecimals,
  perShown,
  type QuotaDisplay,
  quotaCounterpart,
  quotaInputText,
  quotaOfInput,
  quotaOfUnits,
} from '../lib/format.ts';
import { useStatus } from '../lib/status-context.tsx';

/** The site's quota display (currency or quota, symbol and rate), re-rendering when the status object changes. */
export function useQuotaDisplay(): QuotaDisplay {
  const status = useStatus();
  return useMemo(() => displayOfStatus(status), [status]);
}

/**
 * The currency a price set in dollars (a plan's price) is shown and typed in: the site's ($, ¥ at
 * USDExchangeRate, its own), or dollars when the site shows quota.
 */
export function usePriceCurrency(): { symbol: string; rate: number } {
  const display = useQuotaDisplay();
  return display.displayInCurrency
    ? { symbol: currencySymbol(display), rate: display.rate ?? 1 }
    : { symbol: '$', rate: 1 };
}

type Inherited = Omit<
  NumberInputProps,
  'value' | 'onChange' | 'prefix' | 'suffix' | 'decimalScale' | 'allowDecimal' | 'min' | 'max' | 'step' | 'defaultValue'
>;

export interface QuotaInputProps extends Inherited {
  /** The quota, an integer ('' or a numeric string as forms hold it). */
  value?: number | string;
  /** The integer quota for what was typed, or '' while the field is empty. */
  onChange: (quota: number | '') => void;
  /** Bounds, in quota. */
  min?: number;
  max?: number;
  /** Arrow-key step, in quota. */
  step?: number;
  /** Preset amounts in currency units ($1, $10 …), offered as chips worth that many times the quota per unit. */
  presetUnits?: readonly number[];
  /** Another display than the site's (tests, previews). */
  quotaDisplay?: QuotaDisplay;
  'data-testid'?: string;
}

const quotaOf = (v: number | string | undefined): number =>
  v === undefined || v === '' ? Number.NaN : Number.isFinite(Number(v)) ? Math.round(Number(v)) : Number.NaN;

/**
 * An amount of quota typed in the site's display unit: its currency ($, ¥ …) when the site shows one,
 * else quota. Value in and out is the integer quota (typed dollars are rounded to the nearest
 * quota); the other unit reads under the field ("= 2,500,000 quota" under $5, "= $5.00" under
 * 2,500,000), then the presets if any.
 */
export function QuotaInput(props: QuotaInputProps) {
  const { t } = useLingui();
  const siteDisplay = useQuotaDisplay();
  const {
    value,
    onChange,
    min,
    max,
    step,
    presetUnits,
    quotaDisplay: display = siteDisplay,
    description,
    ...rest
  } = props;
  const testId = props['data-testid'];
  const quota = quotaOf(value);
  const inCurrency = display.displayInCurrency;
  const [text, setText] = useState<string>(() => (Number.isNaN(quota) ? '' : quotaInputText(quota, display)));

  // A value set from outside (a preset, a reset, another row) or a new display unit replaces
  // the text, unless the text already says that quota (so "5." or "5.10" stay as typed).
  useEffect(() => {
    const typed = quotaOfInput(text, display);
    if (Number.isNaN(typed) && Number.isNaN(quota)) return;
    if (typed !== quota) setText(Number.isNaN(quota) ? '' : quotaInputText(quota, display));
    // Only the outside value and the unit drive this; the text is what it is compared with.
  }, [quota, display.displayInCurrency, display.quotaPerUnit, display.rate, display.symbol]);

  const toUnit = (q: number | undefined) => (q === undefined ? undefined : inCurrency ? q / perShown(display) : q);
  const counterpart = Number.isNaN(quota)
    ? null
    : inCurrency
      ? t`= ${quotaCounterpart(quota, display)} quota`
      : `= ${quotaCounterpart(quota, display)}`;
  const input = (
    <NumberInput
      {...rest}
      description={description}
      value={text}
      onChange={(v) => {
        const s = String(v);
        setText(s);
        const q = quotaOfInput(s, display);
        onChange(Number.isNaN(q) ? '' : q);
      }}
      min={toUnit(min)}
      max={toUnit(max)}
      step={toUnit(step)}
      prefix={inCurrency ? currencySymbol(display) : undefined}
      decimalScale={inputDecimals(display)}
      allowDecimal={inCurrency}
      thousandSeparator=","
      inputMode={inCurrency ? 'decimal' : 'numeric'}
    />
  );
  return (
    <div>
      {input}
      {/* Under the field, the other unit; a blank line while the field is empty, so nothing jumps. */}
      <Text
        size="xs"
        c="dimmed"
        mt={4}
        style={{ fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId ? `${testId}-counterpart` : undefined}
        data-quota={Number.isNaN(quota) ? undefined : quota}
      >
        {counterpart ?? '\u00a0'}
      </Text>
      {presetUnits && presetUnits.length > 0 && (
        <Chip.Group value={String(quota)} onChange={(v) => onChange(Number(v))}>
          <Group gap={6} mt={6} data-testid={testId ? `${testId}-presets` : undefined}>
            {presetUnits.map((u) => {
              const q = quotaOfUnits(u, display);
              return (
                <Chip key={u} value={String(q)} size="xs" variant="light" disabled={rest.disabled}>
                  {formatQuota(q, display, Number.isInteger(u) ? 0 : 2)}
                </Chip>
              );
            })}
          </Group>
        </Chip.Group>
      )}
    </div>
  );
}
