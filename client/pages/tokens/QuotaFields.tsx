import { useLingui } from '@lingui/react/macro';
import { Chip, Group, NumberInput, Stack, Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { amountToQuota, formatQuota, quotaDisplay, quotaToAmount } from '../../lib/format.ts';
import { QUOTA_PRESETS, type TokenFormValues } from './form.ts';

/** Remaining quota with the $ presets and the unlimited switch; in currency when the site displays currency. */
export function QuotaFields({ form }: { form: UseFormReturnType<TokenFormValues> }) {
  const { t } = useLingui();
  const display = quotaDisplay();
  const quota = Number(form.values.remain_quota) || 0;
  const unlimited = form.values.unlimited_quota;
  const inCurrency = display.displayInCurrency;
  const dollars = { ...display, displayInCurrency: true };
  return (
    <Stack gap="xs">
      <NumberInput
        label={t`Remaining quota`}
        description={inCurrency ? t`${quota.toLocaleString()} quota units` : t`Worth ${formatQuota(quota, dollars)}`}
        disabled={unlimited}
        min={0}
        allowDecimal={inCurrency}
        decimalScale={inCurrency ? 6 : 0}
        prefix={inCurrency ? '$' : undefined}
        thousandSeparator=","
        value={inCurrency ? quotaToAmount(quota, display) : quota}
        onChange={(v) => {
          const n = Number(v) || 0;
          form.setFieldValue('remain_quota', inCurrency ? amountToQuota(n, display) : Math.trunc(n));
        }}
        error={form.errors.remain_quota}
        data-testid="token-quota"
      />
      <Chip.Group value={String(quota)} onChange={(v) => form.setFieldValue('remain_quota', Number(v))}>
        <Group gap={6}>
          {QUOTA_PRESETS.map((p) => (
            <Chip key={p} value={String(p)} size="xs" variant="light" disabled={unlimited}>
              {formatQuota(p, dollars, 0)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Switch
        label={t`Unlimited quota`}
        description={t`The token draws on your balance without its own cap`}
        {...form.getInputProps('unlimited_quota', { type: 'checkbox' })}
      />
    </Stack>
  );
}
