import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Skeleton, Tabs } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FieldGrid, SectionFrame, useFieldCheck } from '../form/OptionsSection.tsx';
import { useOptionMap, useOptionsForm } from '../form/useOptionsForm.ts';
import { presetPricedModels } from '../../../../shared/preset-prices.ts';
import { ratioJsonFields } from '../tabs/operation-fields.ts';
import { useUnsavedChanges } from '../../../components/UnsavedChanges.tsx';
import { trpc } from '../../../trpc.ts';
import { changedModels, numberMap } from './changed-models.ts';
import { PresetPricesReview } from './PresetPricesReview.tsx';
import { PresetFill } from './PresetFill.tsx';
import { UnpricedAlert } from './UnpricedAlert.tsx';
import { UnsetModelsTable } from './UnsetModelsTable.tsx';
import { VisualPriceEditor } from './VisualPriceEditor.tsx';

const PRICE_KEYS = ratioJsonFields.map((f) => f.key);

/**
 * Model pricing: one form behind three views (JSON editor, visual editor, models
 * without a price), so an edit in one view shows in the others and one Save sends it.
 */
export function PricingArea() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const form = useOptionsForm(PRICE_KEYS);
  const check = useFieldCheck(ratioJsonFields);
  // ?pricing=unset (the channel form's "set prices" link) opens the list of models without a price.
  const [params] = useSearchParams();
  const [view, setView] = useState(params.get('pricing') === 'unset' ? 'unset' : 'visual');
  const scrollHere = () => document.getElementById('section-pricing')?.scrollIntoView({ block: 'start' });
  const showUnset = () => {
    setView('unset');
    scrollHere();
  };
  useEffect(() => {
    if (params.get('pricing') === 'unset' && form.loaded) scrollHere();
  }, [form.loaded]);
  // A saved price changes which models are unpriced (the warning above the tabs) and which are presets.
  const save = async () => {
    const ok = await form.save(check);
    if (ok) {
      void utils.pricing.unpriced.invalidate();
      void utils.pricing.presets.invalidate();
    }
    return ok;
  };
  // "Add model › Apply" only stages a price: leaving the page asks, and the page's bar names the models.
  const changed = changedModels(form.saved, form.values, PRICE_KEYS);
  // Preset marks follow the edits: a model whose staged price differs from the shipped one is not marked.
  const { map } = useOptionMap();
  const presets = useMemo(
    () =>
      new Set(
        presetPricedModels({
          ModelPrice: numberMap(form.values.ModelPrice),
          ModelRatio: numberMap(form.values.ModelRatio),
          CompletionRatio: numberMap(form.values.CompletionRatio),
          CacheRatio: numberMap(form.values.CacheRatio),
          CacheCreationRatio: numberMap(map.CacheCreationRatio),
        }),
      ),
    [form.values, map.CacheCreationRatio],
  );
  const [onlyPresets, setOnlyPresets] = useState(false);
  const reviewPresets = () => {
    setOnlyPresets(true);
    setView('visual');
  };
  useUnsavedChanges({ title: t`Model pricing`, items: changed, save, discard: form.reset });
  const reset = trpc.options.resetModelRatio.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t`Model ratios were reset` });
      void utils.options.list.invalidate();
      void utils.pricing.unpriced.invalidate();
    },
    onError: () => notifications.show({ color: 'red', message: t`Failed to reset preset ratios, please retry` }),
  });

  const confirmReset = () =>
    modals.openConfirmModal({
      title: t`Reset model ratios?`,
      children: t`Every model ratio goes back to the built-in defaults.`,
      labels: { confirm: t`Reset`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate(),
    });

  return (
    <SectionFrame title={<Trans>Model pricing</Trans>} testId="section-pricing">
      <UnpricedAlert onShow={showUnset} />
      <PresetPricesReview onReview={reviewPresets} blocked={changed.length > 0} />
      {form.loaded ? (
        <Tabs value={view} onChange={(v) => v && setView(v)} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="visual">
              <Trans>Visual editor</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="json">
              <Trans>Model ratio JSON</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="unset">
              <Trans>Models without a price</Trans>
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="visual" pt="md">
            <VisualPriceEditor
              form={form}
              presets={presets}
              onlyPresets={onlyPresets}
              setOnlyPresets={setOnlyPresets}
            />
          </Tabs.Panel>
          <Tabs.Panel value="json" pt="md">
            <FieldGrid fields={ratioJsonFields} form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="unset" pt="md">
            <UnsetModelsTable form={form} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Skeleton h={200} />
      )}
      <Group gap="xs">
        <Button loading={form.saving} onClick={() => void save()} data-testid="pricing-save">
          <Trans>Save</Trans>
        </Button>
        <PresetFill form={form} />
        <Button variant="default" color="red" loading={reset.isPending} onClick={confirmReset}>
          <Trans>Reset model ratios</Trans>
        </Button>
      </Group>
    </SectionFrame>
  );
}
