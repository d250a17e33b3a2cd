import { useLingui } from '@lingui/react/macro';
import { Button, Tooltip } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';

/**
 * "Add demo channel" (issue 22): with DEMO_CHANNEL=true on the server, a channel answered by the
 * gateway's built-in fake upstream, to try tokens, the relay, billing and the playground without a
 * provider key. Hidden otherwise.
 */
export function DemoChannelButton({ onAdded }: { onAdded: () => void }) {
  const { t } = useLingui();
  const status = useStatus();
  const add = trpc.channels.addDemo.useMutation({
    onSuccess: ({ id }) => {
      showSuccess(t`Demo channel #${id} added: model gpt-4o-mini now answers with made-up text`);
      onAdded();
    },
    onError: showError,
  });
  if (!status.demo_channel) return null;
  return (
    <Tooltip
      multiline
      w={280}
      label={t`Demo: answers come from the gateway's built-in fake upstream, no provider key needed. Delete it before going live.`}
    >
      <Button
        variant="light"
        color="grape"
        leftSection={<IconFlask size={16} />}
        loading={add.isPending}
        onClick={() => add.mutate()}
        data-testid="add-demo-channel"
      >
        {t`Add demo channel`}
      </Button>
    </Tooltip>
  );
}
