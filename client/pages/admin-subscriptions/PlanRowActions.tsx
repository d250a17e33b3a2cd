import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { RowMenu } from '../../components/RowMenu.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import type { PlanRow } from '../../lib/subscriptions.ts';
import { trpc } from '../../trpc.ts';

/**
 * Edit as an icon; on sale or not in the "more" menu. A plan is never deleted (orders and users'
 * subscriptions point at it, as in new-api): taking it off sale is how it goes.
 */
export function PlanRowActions({ row, onEdit }: { row: PlanRow; onEdit: (row: PlanRow) => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const setEnabled = trpc.subscriptionAdmin.setEnabled.useMutation({
    onSuccess: (p) => {
      showSuccess(p.enabled ? t`The plan is on sale` : t`The plan is off sale`);
      void utils.subscriptionAdmin.plans.invalidate();
    },
    onError: showError,
  });
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t`Edit`} withinPortal>
        <ActionIcon variant="default" aria-label={t`Edit`} onClick={() => onEdit(row)}>
          <IconPencil size={14} />
        </ActionIcon>
      </Tooltip>
      <RowMenu
        enabled={row.enabled}
        onToggle={() => setEnabled.mutate({ id: row.id, enabled: !row.enabled })}
        loading={setEnabled.isPending}
      />
    </Group>
  );
}
