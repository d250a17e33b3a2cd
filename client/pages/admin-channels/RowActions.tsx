import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconBan,
  IconCheck,
  IconCopy,
  IconDots,
  IconKey,
  IconListSearch,
  IconPencil,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import { ChannelStatus } from '../../../shared/constants.ts';
import { showError, showFailure, showSuccess } from '../../lib/errors.ts';
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
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t`More actions`}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
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
          <Menu.Item
            leftSection={enabled ? <IconBan size={14} /> : <IconCheck size={14} />}
            onClick={() =>
              setStatus.mutate({
                id: channel.id,
                status: enabled ? ChannelStatus.ManuallyDisabled : ChannelStatus.Enabled,
              })
            }
          >
            {enabled ? t`Disable` : t`Enable`}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={confirmDelete}>
            {t`Delete`}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
