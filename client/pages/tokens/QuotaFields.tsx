import { useLingui } from '@lingui/react/macro';
import { Stack, Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { QuotaInput } from '../../components/QuotaInput.tsx';
import { QUOTA_PRESET_UNITS, type TokenFormValues } from './form.ts';

/** Remaining quota in the site's display unit, with the $1 … $1000 presets and the unlimited switch. */
export function QuotaFields({ form }: { form: UseFormReturnType<TokenFormValues> }) {
  const { t } = useLingui();
  const unlimited = form.values.unlimited_quota;
  return (
    <Stack gap="xs">
      <QuotaInput
        label={t`Remaining quota`}
        disabled={unlimited}
        min={0}
        value={form.values.remain_quota}
        onChange={(q) => form.setFieldValue('remain_quota', q)}
        presetUnits={QUOTA_PRESET_UNITS}
        error={form.errors.remain_quota}
        data-testid="token-quota"
      />
      <Switch
        label={t`Unlimited quota`}
        description={t`The token draws on your balance without its own cap`}
        {...form.getInputProps('unlimited_quota', { type: 'checkbox' })}
      />
    </Stack>
  );
}
