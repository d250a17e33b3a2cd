import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCopy, IconPencil } from '@tabler/icons-react';
import { RedemptionStatus } from '../../../shared/constants.ts';
import { RowMenu } from '../../components/RowMenu.tsx';
import { copyText } from '../../components/clipboard.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { Redemption } from './types.ts';

interface Props {
  row: Redemption;
  onEdit: (row: Redemption) => void;
}

/**
 * As the channel and user tables do: the frequent actions as icons (copy the key, edit while
 * unused), the rest in a "more" menu (enable/disable, never enable a used code; delete, confirmed).
 */
export function RowActions({ row, onEdit }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const refresh = () => void utils.redemptions.list.invalidate();
  const setStatus = trpc.redemptions.setStatus.useMutation({
    onSuccess: () => {
      showSuccess(t`Operation successful`);
      refresh();
    },
    onError: showError,
  });
  const remove = trpc.redemptions.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Redemption code deleted`);
      refresh();
    },
    onError: showError,
  });

  const unused = row.status === RedemptionStatus.Unused;
  const used = row.status === RedemptionStatus.Used;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t`Delete this redemption code?`,
      centered: true,
      children: (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          <Trans>
            The code "{row.name}" ({row.key}) will be deleted. This cannot be undone.
          </Trans>
        </Text>
      ),
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: row.id }),
    });

  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t`Copy code`} withinPortal>
        <ActionIcon variant="light" aria-label={t`Copy code`} onClick={() => void copyText(row.key)}>
          <IconCopy size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={unused ? t`Edit` : t`Only unused codes can be edited`} withinPortal>
        <ActionIcon variant="default" aria-label={t`Edit`} disabled={!unused} onClick={() => onEdit(row)}>
          <IconPencil size={14} />
        </ActionIcon>
      </Tooltip>
      <RowMenu
        enabled={unused}
        onToggle={() =>
          setStatus.mutate({ id: row.id, status: unused ? RedemptionStatus.Disabled : RedemptionStatus.Unused })
        }
        toggleDisabled={used}
        onDelete={confirmDelete}
        loading={setStatus.isPending}
      />
    </Group>
  );
}
