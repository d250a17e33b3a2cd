import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

/** Tag-level actions in tag mode: enable all, disable all, edit the tag. */
export function TagActions({ tag, onEdit }: { tag: string; onEdit: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const setEnabled = trpc.channels.setTagEnabled.useMutation({
    onSuccess: () => {
      showSuccess(t`Operation successful`);
      void utils.channels.list.invalidate();
    },
    onError: showError,
  });
  const busy = setEnabled.isPending;
  return (
    // Clicks here must not toggle the tag row's expansion.
    <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      <Tooltip label={t`Enable all`} withinPortal>
        <ActionIcon
          variant="light"
          color="teal"
          aria-label={t`Enable all`}
          disabled={busy}
          onClick={() => setEnabled.mutate({ tag, enabled: true })}
        >
          <IconPlayerPlay size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t`Disable all`} withinPortal>
        <ActionIcon
          variant="light"
          color="red"
          aria-label={t`Disable all`}
          disabled={busy}
          onClick={() => setEnabled.mutate({ tag, enabled: false })}
        >
          <IconPlayerPause size={14} />
        </ActionIcon>
      </Tooltip>
      <Button size="compact-xs" variant="default" leftSection={<IconPencil size={12} />} onClick={onEdit}>
        {t`Edit tag`}
      </Button>
    </Group>
  );
}
