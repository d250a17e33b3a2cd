import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCopy, IconKey, IconListSearch, IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { ChannelStatus } from '../../../shared/constants.ts';
import { showError, showFailure, showSuccess } from '../../lib/errors.ts';
import { RowMenu } from '../../components/RowMenu.tsx';
import { trpc } from '../../trpc.ts';
import { useOpenKeys } from './keys/open-keys.tsx';
import type { ChannelRow } from './types.ts';

interface Props {
  channel: ChannelRow;
  onEdit: () => void;
  onTest: () => void;
  onPickModel: () => void;
  testing: boolean;
}

/** Test (default model, or pick one), enable/disable, edit, copy, delete with confirm. */
export function RowActions({ channel, onEdit, onTest, onPickModel, testing }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const refresh = () => void utils.channels.list.invalidate();
  const done = (message: string) => () => {
    showSuccess(message);
    refresh();
  };
  const setStatus = trpc.channels.setStatus.useMutation({
    onSuccess: done(t`Operation successful`),
    onError: showError,
  });
  const copy = trpc.channels.copy.useMutation({
    onSuccess: ({ id }) => done(t`Channel copied as #${id}`)(),
    onError: (e) => showFailure(t`Channel copy failed`, e),
  });
  const remove = trpc.channels.remove.useMutation({ onSuccess: done(t`Channel deleted`), onError: showError });
  const enabled = channel.status === ChannelStatus.Enabled;
  const openKeys = useOpenKeys();
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t`Delete channel`,
      centered: true,
      children: <Text size="sm">{t`Delete channel #${channel.id} "${channel.name}"? This cannot be undone.`}</Text>,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: channel.id }),
    });

  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t`Test`} withinPortal>
        <ActionIcon variant="light" aria-label={t`Test`} loading={testing} onClick={onTest}>
          <IconPlayerPlay size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t`Edit`} withinPortal>
        <ActionIcon variant="default" aria-label={t`Edit`} onClick={onEdit}>
          <IconPencil size={14} />
        </ActionIcon>
      </Tooltip>
      <RowMenu
        enabled={enabled}
        onToggle={() =>
          setStatus.mutate({ id: channel.id, status: enabled ? ChannelStatus.ManuallyDisabled : ChannelStatus.Enabled })
        }
        onDelete={confirmDelete}
      >
        <Menu.Item leftSection={<IconListSearch size={14} />} onClick={onPickModel}>
          {t`Test with a chosen model`}
        </Menu.Item>
        {channel.channel_info?.is_multi_key && (
          <Menu.Item leftSection={<IconKey size={14} />} onClick={() => openKeys(channel)}>
            {t`Keys`}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => copy.mutate({ id: channel.id })}>
          {t`Copy channel`}
        </Menu.Item>
      </RowMenu>
    </Group>
  );
}
