import { Trans, useLingui } from '@lingui/react/macro';
import { Drawer, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { DURATION_UNITS, RESET_PERIODS } from '../../../shared/schemas/subscriptions.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { QuotaInput, usePriceCurrency } from '../../components/QuotaInput.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import type { PlanRow } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';
import { toFields, usePlanForm, valuesFromPlan, emptyPlan } from './plan-form.ts';

interface Props {
  opened: boolean;
  /** The plan being edited; undefined when creating. */
  editing?: PlanRow;
  onClose: () => void;
}

/** Create or edit a plan in a side panel (new-api's AddEditSubscriptionModal, its fields and defaults). */
export function PlanDrawer({ opened, editing, onClose }: Props) {
  const { t } = useLingui();
  const form = usePlanForm({
    titleRequired: t`The plan needs a title`,
    quotaRequired: t`Enter the quota per period, or turn on “Unlimited quota”`,
  });
  const utils = trpc.useUtils();
  const groups = trpc.groups.list.useQuery(undefined, { enabled: opened });
  const done = () => {
    void utils.subscriptionAdmin.plans.invalidate();
    onClose();
  };
  const create = trpc.subscriptionAdmin.create.useMutation({
    onSuccess: () => {
      showSuccess(t`Plan created`);
      done();
    },
    onError: showError,
  });
  const update = trpc.subscriptionAdmin.update.useMutation({
    onSuccess: () => {
      showSuccess(t`Plan updated`);
      done();
    },
    onError: showError,
  });

  useEffect(() => {
    if (!opened) return;
    form.setValues(editing ? valuesFromPlan(editing) : emptyPlan);
    form.resetDirty();
    // Reset only when the panel opens for another plan, not on every render of the form.
  }, [opened, editing?.id]);

  const submit = form.onSubmit(
    (values) => (editing ? update.mutate({ id: editing.id, plan: toFields(values) }) : create.mutate(toFields(values))),
    (errors) => showError(new Error(String(Object.values(errors)[0]))),
  );
  const v = form.values;
  const price = usePriceCurrency();
  const durationUnits: Record<(typeof DURATION_UNITS)[number], string> = {
    year: t`Years`,
    month: t`Months`,
    day: t`Days`,
    hour: t`Hours`,
    custom: t`Seconds (custom)`,
  };
  const resetPeriods: Record<(typeof RESET_PERIODS)[number], string> = {
    never: t`Never renews`,
    daily: t`Every day`,
    weekly: t`Every week`,
    monthly: t`Every month`,
    custom: t`Custom (seconds)`,
  };
  const groupNames = groups.data ?? [];

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={editing ? <Trans>Edit plan</Trans> : <Trans>New subscription plan</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <form onSubmit={submit} data-testid="plan-form" noValidate>
        <Stack gap="md">
          <TextInput label={t`Title`} required placeholder={t`e.g. Basic plan`} {...form.getInputProps('title')} />
          <Textarea label={t`Subtitle`} autosize minRows={1} {...form.getInputProps('subtitle')} />
          <SimpleGrid cols={2} spacing="sm">
            {/* Typed in the site's currency (¥ at USDExchangeRate …); the plan keeps its price in dollars. */}
            <NumberInput
              label={t`Price (${price.symbol})`}
              min={0}
              max={9999 * price.rate}
              decimalScale={2}
              prefix={price.symbol}
              data-testid="plan-price"
              {...form.getInputProps('price_amount')}
              value={Number((v.price_amount * price.rate).toFixed(2))}
              onChange={(n) => form.setFieldValue('price_amount', (Number(n) || 0) / price.rate)}
            />
            <QuotaInput
              label={t`Quota per period`}
              required={!v.unlimited_quota}
              disabled={v.unlimited_quota}
              placeholder={v.unlimited_quota ? t`Unlimited` : undefined}
              min={1}
              value={v.unlimited_quota ? '' : v.total_amount}
              onChange={(q) => form.setFieldValue('total_amount', q)}
              error={form.errors.total_amount}
              data-testid="plan-quota"
            />
          </SimpleGrid>
          <Switch
            label={t`Unlimited quota`}
            description={t`Buyers can spend without limit during each period, whatever the plan costs. Leave it off and enter the quota per period unless that is what you sell.`}
            color="orange"
            data-testid="plan-unlimited"
            {...form.getInputProps('unlimited_quota', { type: 'checkbox' })}
          />
          <SimpleGrid cols={2} spacing="sm">
            <Select
              label={t`Valid for`}
              data={DURATION_UNITS.map((u) => ({ value: u, label: durationUnits[u] }))}
              allowDeselect={false}
              {...form.getInputProps('duration_unit')}
            />
            {v.duration_unit === 'custom' ? (
              <NumberInput label={t`Seconds`} min={1} allowDecimal={false} {...form.getInputProps('custom_seconds')} />
            ) : (
              <NumberInput label={t`How many`} min={1} allowDecimal={false} {...form.getInputProps('duration_value')} />
            )}
          </SimpleGrid>
          <SimpleGrid cols={2} spacing="sm">
            <Select
              label={t`Quota renews`}
              data={RESET_PERIODS.map((r) => ({ value: r, label: resetPeriods[r] }))}
              allowDeselect={false}
              data-testid="plan-reset"
              {...form.getInputProps('quota_reset_period')}
            />
            {v.quota_reset_period === 'custom' && (
              <NumberInput
                label={t`Seconds`}
                min={1}
                allowDecimal={false}
                {...form.getInputProps('quota_reset_custom_seconds')}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={2} spacing="sm">
            <NumberInput
              label={t`Purchase limit per user`}
              description={t`0 means unlimited`}
              min={0}
              allowDecimal={false}
              {...form.getInputProps('max_purchase_per_user')}
            />
            <NumberInput label={t`Sort order`} allowDecimal={false} {...form.getInputProps('sort_order')} />
          </SimpleGrid>
          <Select
            label={t`Upgrade group`}
            description={t`Buyers move to this group while the plan lasts, and back when it ends`}
            placeholder={t`No upgrade`}
            clearable
            data={groupNames}
            value={v.upgrade_group || null}
            onChange={(g) => form.setFieldValue('upgrade_group', g ?? '')}
          />
          <Switch label={t`On sale`} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <FormFooter
            sticky
            onCancel={onClose}
            label={editing ? <Trans>Save</Trans> : <Trans>Create</Trans>}
            loading={create.isPending || update.isPending}
            testId="plan-save"
          />
        </Stack>
      </form>
    </Drawer>
  );
}
