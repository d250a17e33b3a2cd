import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconTag } from '@tabler/icons-react';
import { showError } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';

interface Props {
  /** Shows only the preset rows in the visual editor. */
  onReview: () => void;
  /** The form has staged edits: clearing (a server write) would overwrite them, so it waits for Save or Discard. */
  blocked: boolean;
}

/**
 * The prices a fresh install ships (providers' public list prices) that the operator never set
 * (pricing.presets, saved state): until reviewed, a warning that says so with Keep and Clear; after
 * "Keep", one line with Clear still at hand.
 */
export function PresetPricesReview({ onReview, blocked }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const presets = trpc.pricing.presets.useQuery();
  const refresh = () => {
    void utils.pricing.presets.invalidate();
    void utils.pricing.unpriced.invalidate();
    void utils.options.list.invalidate();
  };
  const keep = trpc.options.update.useMutation({ onSuccess: refresh, onError: showError });
  const clear = trpc.pricing.clearPresets.useMutation({
    onSuccess: ({ cleared }) => {
      const n = cleared.length;
      notifications.show({ color: 'teal', message: t`Preset prices cleared: ${n} models now have no price` });
      refresh();
    },
    onError: showError,
  });

  const models = presets.data?.models ?? [];
  if (models.length === 0) return null;
  const n = models.length;

  const confirmClear = () =>
    modals.openConfirmModal({
      title: t`Clear the preset prices?`,
      children: (
        <Text size="sm">
          <Trans>
            {n} models lose their preset price and cannot be called until you set one. Prices you changed are kept.
          </Trans>
        </Text>
      ),
      labels: { confirm: t`Clear preset prices`, cancel: t`Cancel` },
      confirmProps: { color: 'red', 'data-testid': 'preset-clear-confirm' } as Record<string, string>,
      onConfirm: () => clear.mutate(),
    });

  const clearButton = (
    <Button
      size="xs"
      variant="light"
      color="red"
      loading={clear.isPending}
      disabled={blocked}
      onClick={confirmClear}
      data-testid="preset-clear"
    >
      <Trans>Clear preset prices</Trans>
    </Button>
  );
  const blockedNote = blocked && (
    <Text size="xs" c="dimmed">
      <Trans>Save or discard your changes first.</Trans>
    </Text>
  );

  if (presets.data?.reviewed)
    return (
      <Group gap="xs" data-testid="preset-kept">
        <Text size="sm" c="dimmed">
          <Plural
            value={n}
            one="# model keeps the preset list price (marked Preset)."
            other="# models keep the preset list prices (marked Preset)."
          />
        </Text>
        {clearButton}
        {blockedNote}
      </Group>
    );

  return (
    <Alert
      color="yellow"
      icon={<IconTag size={18} />}
      title={<Plural value={n} one="# model has a preset price" other="# models have preset prices" />}
      data-testid="preset-alert"
    >
      <Text size="sm">
        <Trans>
          Switchyard ships the public list prices of the providers for these models, and charges them as they are until
          you change them. Review them (marked Preset below), then keep them, or clear them all: those models then have
          no price and cannot be called until you set one. A price you changed is never cleared.
        </Trans>
      </Text>
      <Group gap="xs" mt="sm">
        <Button size="xs" variant="default" onClick={onReview} data-testid="preset-review">
          <Trans>Show preset prices</Trans>
        </Button>
        <Button
          size="xs"
          variant="light"
          loading={keep.isPending}
          onClick={() => keep.mutate({ key: 'PresetPricesReviewed', value: 'true' })}
          data-testid="preset-keep"
        >
          <Trans>Keep preset prices</Trans>
        </Button>
        {clearButton}
      </Group>
      {blockedNote}
    </Alert>
  );
}
