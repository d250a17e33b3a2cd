import { useLingui } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { expiryShortcut, type TokenFormValues } from './form.ts';

/** Expiry date-time with the never / 1 hour / 1 day / 1 month shortcuts. */
export function ExpiryField({ form }: { form: UseFormReturnType<TokenFormValues> }) {
  const { t } = useLingui();
  const shortcuts: [string, number | null][] = [
    [t`Never`, null],
    [t`1 hour`, 3600],
    [t`1 day`, 86_400],
    [t`1 month`, 30 * 86_400],
  ];
  return (
    <Stack gap={6}>
      <DateTimePicker
        label={t`Expires`}
        placeholder={t`Never expires`}
        clearable
        withSeconds
        valueFormat="YYYY-MM-DD HH:mm:ss"
        minDate={new Date()}
        {...form.getInputProps('expired_at')}
      />
      <Group gap={6}>
        {shortcuts.map(([label, seconds]) => (
          <Button
            key={label}
            size="compact-xs"
            variant="default"
            onClick={() => form.setFieldValue('expired_at', expiryShortcut(seconds))}
          >
            {label}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
