import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCopy, IconEye, IconMessageChatbot, IconPencil } from '@tabler/icons-react';
import { TokenStatus } from '../../../shared/constants.ts';
import { RowMenu } from '../../components/RowMenu.tsx';
import { copyText } from '../../components/clipboard.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { listChatLinks } from '../../lib/chat-link.ts';
import { openChat } from './chat-links.ts';
import { showTokenDetails } from './TokenDetails.tsx';
import { fullKey, type TokenRow } from './types.ts';

interface Props {
  token: TokenRow;
  onEdit: () => void;
  /** The row takes the status the server answers. */
  onChanged: (token: TokenRow) => void;
}

/** View, copy, chat, enable/disable, edit, delete (console-screens §2.2). */
export function RowActions({ token, onEdit, onChanged }: Props) {
  const { t } = useLingui();
  const status = useStatus();
  const utils = trpc.useUtils();
  const chats = listChatLinks(status.chats);
  const setStatus = trpc.tokens.setStatus.useMutation({
    onSuccess: (row) => {
      onChanged(row);
      showSuccess(t`Operation successful`);
    },
    onError: showError,
  });
  const remove = trpc.tokens.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Token deleted`);
      void utils.tokens.list.invalidate();
    },
    onError: showError,
  });
  const enabled = token.status === TokenStatus.Enabled;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t`Delete token`,
      centered: true,
      children: <Text size="sm">{t`Delete token "${token.name}"? Requests using its key will fail at once.`}</Text>,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: token.id }),
    });
  const key = fullKey(token.key);

  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t`View`} withinPortal>
        <ActionIcon variant="subtle" color="gray" aria-label={t`View`} onClick={() => showTokenDetails(token)}>
          <IconEye size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t`Copy`} withinPortal>
        <ActionIcon variant="subtle" color="gray" aria-label={t`Copy`} onClick={() => void copyText(key)}>
          <IconCopy size={16} />
        </ActionIcon>
      </Tooltip>
      {chats.length > 0 && (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t`Chat`}>
              <IconMessageChatbot size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t`Chat with this token`}</Menu.Label>
            {chats.map((c) => (
              <Menu.Item key={c.index} onClick={() => openChat(c, status.server_address, key)}>
                {c.name}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      <Tooltip label={t`Edit`} withinPortal>
        <ActionIcon variant="light" aria-label={t`Edit`} onClick={onEdit}>
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <RowMenu
        enabled={enabled}
        onToggle={() =>
          setStatus.mutate({ id: token.id, status: enabled ? TokenStatus.Disabled : TokenStatus.Enabled })
        }
        onDelete={confirmDelete}
      />
    </Group>
  );
}
