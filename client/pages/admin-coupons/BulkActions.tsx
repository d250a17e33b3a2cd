import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconBan, IconChevronDown, IconTrash, IconTrashX } from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { Redemption } from './types.ts';

interface Props {
  selected: Redemption[];
  /** Clears the selection and reloads the list after a bulk change. */
  onDone: () => void;
  onDeleteByName: () => void;
}

/**
 * The page's bulk actions behind one menu (issue 31: three red buttons in the header were a wall
 * of red in dark mode). Each asks first: disable the selected codes, delete every disabled code,
 * delete by name (its own dialog, which counts before it deletes).
 */
export function BulkActions({ selected, onDone, onDeleteByName }: Props) {
  const { t } = useLingui();
  const batchDisable = trpc.redemptions.batchDisable.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: 'Disabled # redemption code', other: 'Disabled # redemption codes' }));
      onDone();
    },
    onError: showError,
  });
  const deleteDisabled = trpc.redemptions.deleteDisabled.useMutation({
    onSuccess: (n) => {
      showSuccess(
        plural(n, { one: 'Deleted # disabled redemption code', other: 'Deleted # disabled redemption codes' }),
      );
      onDone();
    },
    onError: showError,
  });

  const confirmDisable = () => {
    if (selected.length === 0)
      return notifications.show({ color: 'red', message: t`Please select at least one redemption code` });
    const n = selected.length;
    modals.openConfirmModal({
      title: t`Disable the selected redemption codes?`,
      centered: true,
      children: (
        <Text size="sm">
          {plural(n, {
            one: 'The selected code can no longer be redeemed until it is enabled again.',
            other: 'The # selected codes can no longer be redeemed until they are enabled again.',
          })}
        </Text>
      ),
      labels: { confirm: t`Disable`, cancel: t`Cancel` },
      confirmProps: { color: 'orange' },
      onConfirm: () => batchDisable.mutate({ ids: selected.map((r) => r.id) }),
    });
  };
  const confirmDeleteDisabled = () =>
    modals.openConfirmModal({
      title: t`Delete all disabled redemption codes?`,
      centered: true,
      children: <Text size="sm">{t`Every disabled code will be deleted. This cannot be undone.`}</Text>,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => deleteDisabled.mutate(),
    });

  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          rightSection={<IconChevronDown size={14} />}
          loading={batchDisable.isPending || deleteDisabled.isPending}
          data-testid="bulk-actions"
        >
          <Trans>Bulk actions</Trans>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconBan size={14} />} onClick={confirmDisable}>
          {selected.length ? t`Disable ${selected.length} selected` : t`Disable selected`}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrashX size={14} />} onClick={confirmDeleteDisabled}>
          {t`Delete disabled codes`}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDeleteByName}>
          {t`Delete by name…`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
