import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { showError, showSuccess } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import type { ChannelRow } from './types.ts';

/** The upstream balance in USD; a click asks the upstream again. */
export function BalanceCell({ channel }: { channel: ChannelRow }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const update = trpc.channels.updateBalance.useMutation({
    onSuccess: ({ balance }) => {
      showSuccess(t`Balance updated: $${balance.toFixed(2)}`);
      void utils.channels.list.invalidate();
    },
    onError: showError,
  });
  const tip = channel.balance_updated_time
    ? t`Updated ${formatTimestamp(channel.balance_updated_time)}; click to update`
    : t`Click to update the balance`;
  return (
    <Tooltip label={tip} withinPortal>
      <UnstyledButton onClick={() => update.mutate({ id: channel.id })} disabled={update.isPending}>
        <Badge variant="default" tt="none" style={{ cursor: 'pointer' }}>
          {update.isPending ? t`Updating…` : `$${channel.balance.toFixed(2)}`}
        </Badge>
      </UnstyledButton>
    </Tooltip>
  );
}
