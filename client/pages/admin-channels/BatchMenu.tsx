import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconChevronDown,
  IconCoin,
  IconPlayerPlay,
  IconTag,
  IconTool,
  IconTrash,
  IconTrashX,
} from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  selectedIds: number[];
  onSetTag: () => void;
  onCleared: () => void;
}

/** Actions on the selection (delete, set tag) and on every channel (test, balances, clean-up, repair). */
export function BatchMenu({ selectedIds, onSetTag, onCleared }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const refresh = () => void utils.channels.list.invalidate();
  const removeMany = trpc.channels.removeMany.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: '# channel deleted', other: '# channels deleted' }));
      onCleared();
      refresh();
    },
    onError: showError,
  });
  const removeDisabled = trpc.channels.removeDisabled.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: '# disabled channel deleted', other: '# disabled channels deleted' }));
      refresh();
    },
    onError: showError,
  });
  const testAll = trpc.channels.testAll.useMutation({
    onSuccess: () => showSuccess(t`Testing every channel; refresh the list in a moment to see the results`),
    onError: showError,
  });
  const balances = trpc.channels.updateAllBalances.useMutation({
    onSuccess: () => {
      showSuccess(t`Balances of the enabled channels updated`);
      refresh();
    },
    onError: showError,
  });
  const fix = trpc.channels.fixAbilities.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: 'Abilities rebuilt for # channel', other: 'Abilities rebuilt for # channels' }));
      refresh();
    },
    onError: showError,
  });

  const needSelection = (action: () => void) => () => {
    if (selectedIds.length === 0) notifications.show({ color: 'yellow', message: t`Select channels first` });
    else action();
  };
  const confirm = (title: string, body: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm: t`Confirm`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm,
    });
  const busy = removeMany.isPending || removeDisabled.isPending || balances.isPending || fix.isPending;

  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={14} />} loading={busy}>
          {selectedIds.length ? t`Batch actions (${selectedIds.length})` : t`Batch actions`}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t`Selected channels`}</Menu.Label>
        <Menu.Item leftSection={<IconTag size={14} />} onClick={needSelection(onSetTag)}>
          {t`Set tag`}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={needSelection(() =>
            confirm(
              t`Delete selected channels`,
              plural(selectedIds.length, {
                one: 'Delete the selected channel?',
                other: 'Delete the # selected channels?',
              }),
              () => removeMany.mutate({ ids: selectedIds }),
            ),
          )}
        >
          {t`Delete selected`}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>{t`All channels`}</Menu.Label>
        <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => testAll.mutate()}>
          {t`Test all channels`}
        </Menu.Item>
        <Menu.Item leftSection={<IconCoin size={14} />} onClick={() => balances.mutate()}>
          {t`Update all balances`}
        </Menu.Item>
        <Menu.Item leftSection={<IconTool size={14} />} onClick={() => fix.mutate()}>
          {t`Fix abilities`}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconTrashX size={14} />}
          onClick={() =>
            confirm(t`Delete all disabled channels`, t`Delete every manually or automatically disabled channel?`, () =>
              removeDisabled.mutate(),
            )
          }
        >
          {t`Delete all disabled`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
