import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { RedemptionStatus } from '../../../shared/constants.ts';
import { copyText } from '../../components/clipboard.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { Redemption } from './types.ts';

interface Props {
  row: Redemption;
  onEdit: (row: Redemption) => void;
}

/** Copy, enable/disable (never enable a used code), edit (unused only) and delete with a confirmation. */
export function RowActions({ row, onEdit }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const refresh = () => void utils.redemptions.list.invalidate();
  const setStatus = trpc.redemptions.setStatus.useMutation({ onSuccess: refresh, onError: showError });
  const remove = trpc.redemptions.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Redemption code deleted`);
      refresh();
    },
    onError: showError,
  });

  const unused = row.status === RedemptionStatus.Unused;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t`Delete this redemption code?`,
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
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="light" onClick={() => void copyText(row.key)}>
        <Trans>Copy</Trans>
      </Button>
      {unused ? (
        <Button
          size="compact-xs"
          variant="light"
          color="orange"
          loading={setStatus.isPending}
          onClick={() => setStatus.mutate({ id: row.id, status: RedemptionStatus.Disabled })}
        >
          <Trans>Disable</Trans>
        </Button>
      ) : (
        <Button
          size="compact-xs"
          variant="light"
          color="green"
          disabled={row.status === RedemptionStatus.Used}
          loading={setStatus.isPending}
          onClick={() => setStatus.mutate({ id: row.id, status: RedemptionStatus.Unused })}
        >
          <Trans>Enable</Trans>
        </Button>
      )}
      <Button size="compact-xs" variant="light" disabled={!unused} onClick={() => onEdit(row)}>
        <Trans>Edit</Trans>
      </Button>
      <Button size="compact-xs" variant="light" color="red" onClick={confirmDelete}>
        <Trans>Delete</Trans>
      </Button>
    </Group>
  );
}
