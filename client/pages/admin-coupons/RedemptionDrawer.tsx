import '@mantine/dates/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { Drawer, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useEffect } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';
import { QuotaInput } from '../../components/QuotaInput.tsx';
import { renderQuota } from '../../lib/format.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { emptyRedemption, QUOTA_PRESET_UNITS, toInput, useRedemptionForm, valuesFromRow } from './form.ts';
import { showGeneratedKeys } from './GeneratedKeys.tsx';
import type { Redemption } from './types.ts';

interface Props {
  opened: boolean;
  /** The row being edited; undefined when creating. */
  editing?: Redemption;
  onClose: () => void;
}

/** Create or edit a redemption code in a side panel; after a create the generated keys are shown. */
export function RedemptionDrawer({ opened, editing, onClose }: Props) {
  const { t } = useLingui();
  const creating = !editing;
  const form = useRedemptionForm(creating);
  const utils = trpc.useUtils();
  const done = () => {
    void utils.redemptions.list.invalidate();
    onClose();
  };
  const create = trpc.redemptions.create.useMutation({
    onSuccess: (keys) => {
      done();
      showGeneratedKeys(keys);
    },
    onError: showError,
  });
  const update = trpc.redemptions.update.useMutation({
    onSuccess: () => {
      showSuccess(t`Redemption code updated`);
      done();
    },
    onError: showError,
  });

  useEffect(() => {
    if (!opened) return;
    form.setValues(editing ? valuesFromRow(editing) : emptyRedemption);
    form.resetDirty();
    // Reset only when the panel opens for another row, not on every render of the form.
  }, [opened, editing?.id]);

  const submit = form.onSubmit((values) => {
    const input = toInput(values, creating);
    if (editing) {
      const { name, quota, is_gift, max_uses, valid_from, valid_until } = input;
      update.mutate({ id: editing.id, name, quota, is_gift, max_uses, valid_from, valid_until });
    } else create.mutate(input);
  });

  const quota = Number(form.values.quota) || 0;
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={creating ? <Trans>Create redemption codes</Trans> : <Trans>Edit redemption code</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <form onSubmit={submit} data-testid="redemption-form">
        <Stack gap="md">
          <TextInput
            label={t`Name`}
            placeholder={creating ? t`Defaults to the quota, e.g. ${renderQuota(quota)}` : undefined}
            {...form.getInputProps('name')}
          />
          <QuotaInput
            label={t({ message: 'Quota', context: 'redemption' })}
            min={1}
            presetUnits={QUOTA_PRESET_UNITS}
            value={form.values.quota}
            onChange={(q) => form.setFieldValue('quota', q)}
            error={form.errors.quota}
            data-testid="redemption-quota"
          />
          {creating && (
            <NumberInput label={t`Count`} min={1} max={100} allowDecimal={false} {...form.getInputProps('count')} />
          )}
          <Switch
            label={t`Gift code`}
            description={t`A gift code can be redeemed by many users, each of them once`}
            {...form.getInputProps('is_gift', { type: 'checkbox' })}
          />
          {form.values.is_gift && (
            <NumberInput
              label={t`Max uses`}
              placeholder={t`Empty or -1 means unlimited`}
              min={-1}
              allowDecimal={false}
              {...form.getInputProps('max_uses')}
            />
          )}
          <DateTimePicker
            label={t`Valid from`}
            placeholder={t`No start limit`}
            clearable
            valueFormat="YYYY-MM-DD HH:mm"
            {...form.getInputProps('valid_from')}
          />
          <DateTimePicker
            label={t`Valid until`}
            placeholder={t`Never expires`}
            clearable
            valueFormat="YYYY-MM-DD HH:mm"
            {...form.getInputProps('valid_until')}
          />
          {creating ? (
            <TextInput
              label={t`Custom code`}
              description={t`Optional; leave empty to generate random codes (only one code is created)`}
              {...form.getInputProps('key')}
            />
          ) : (
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              <Trans>Code: {editing.key}</Trans>
            </Text>
          )}
          <FormFooter
            sticky
            onCancel={onClose}
            label={creating ? <Trans>Create</Trans> : <Trans>Save</Trans>}
            loading={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Drawer>
  );
}
