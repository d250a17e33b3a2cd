import { useLingui } from '@lingui/react/macro';
import { Group, MultiSelect, NumberInput, Select, Stack, Switch, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { trpc } from '../../trpc.ts';
import type { TokenFormValues } from './form.ts';

/** Group, model limits, IP allow list and rate limit. */
export function LimitFields({ form }: { form: UseFormReturnType<TokenFormValues> }) {
  const { t } = useLingui();
  const groups = trpc.users.selfGroups.useQuery();
  const models = trpc.users.models.useQuery();
  const groupOptions = Object.entries(groups.data ?? {}).map(([name, g]) => ({
    value: name,
    label: `${name} · ${serverTextInLanguage(g.desc)} (×${g.ratio})`,
  }));
  const current = form.values.group;
  if (current && !groupOptions.some((o) => o.value === current)) groupOptions.push({ value: current, label: current });
  const modelOptions = [...new Set([...(models.data ?? []), ...form.values.model_limits])];
  return (
    <Stack gap="md">
      <Select
        label={t`Group`}
        placeholder={t`Use my user group`}
        description={t`Requests are billed at this group's ratio`}
        data={groupOptions}
        clearable
        searchable
        {...form.getInputProps('group')}
      />
      <Switch
        label={t`Limit models`}
        description={t`Only the models chosen below may be called with this token`}
        {...form.getInputProps('model_limits_enabled', { type: 'checkbox' })}
      />
      {form.values.model_limits_enabled && (
        <MultiSelect
          label={t`Allowed models`}
          placeholder={t`Choose models`}
          data={modelOptions}
          searchable
          clearable
          hidePickedOptions
          maxDropdownHeight={260}
          {...form.getInputProps('model_limits')}
        />
      )}
      <Textarea
        label={t`IP allow list`}
        description={t`One IP address or CIDR range per line; empty allows any address`}
        placeholder={'203.0.113.7\n10.0.0.0/8'}
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('allow_ips')}
      />
      <Switch
        label={t`Rate limit`}
        description={t`Cap the requests this token may make in a period`}
        {...form.getInputProps('rate_limit_enabled', { type: 'checkbox' })}
      />
      {form.values.rate_limit_enabled && (
        <Group grow align="flex-start" gap="xs">
          <NumberInput
            label={t`Period (seconds)`}
            min={1}
            allowDecimal={false}
            {...form.getInputProps('rate_limit_period')}
          />
          <NumberInput label={t`Requests`} min={0} allowDecimal={false} {...form.getInputProps('rate_limit_count')} />
          <NumberInput
            label={t`Successes`}
            min={0}
            allowDecimal={false}
            {...form.getInputProps('rate_limit_success')}
          />
        </Group>
      )}
    </Stack>
  );
}
