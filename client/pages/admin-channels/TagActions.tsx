import { useLingui } from '@lingui/react/macro';
import { Button, Group } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
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
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        color="teal"
        disabled={busy}
        onClick={() => setEnabled.mutate({ tag, enabled: true })}
      >
        {t`Enable all`}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="red"
        disabled={busy}
        onClick={() => setEnabled.mutate({ tag, enabled: false })}
      >
        {t`Disable all`}
      </Button>
      <Button size="compact-xs" variant="default" leftSection={<IconPencil size={12} />} onClick={onEdit}>
        {t`Edit tag`}
      </Button>
    </Group>
  );
}
