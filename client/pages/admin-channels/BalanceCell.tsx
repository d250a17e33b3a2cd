import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { showError, showSuccess } from '../../lib/errors.ts';
import { formatMoney, formatTimestamp } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import type { ChannelRow } from './types.ts';

/** The upstream balance in USD, "unknown" until an upstream has answered; a click asks the upstream again. */
export function BalanceCell({ channel }: { channel: ChannelRow }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const update = trpc.channels.updateBalance.useMutation({
    onSuccess: ({ balance }) => {
      showSuccess(t`Balance updated: ${formatMoney(balance)}`);
      void utils.channels.list.invalidate();
    },
    onError: showError,
  });
  const known = channel.balance_updated_time > 0;
  const tip = known
    ? t`Updated ${formatTimestamp(channel.balance_updated_time)}; click to update`
    : t`Never reported: not asked yet, or the upstream cannot tell. Click to ask`;
  return (
    <Tooltip label={tip} withinPortal>
      <UnstyledButton onClick={() => update.mutate({ id: channel.id })} disabled={update.isPending}>
        <Badge
          variant="default"
          tt="none"
          c={known ? undefined : 'dimmed'}
          style={{ cursor: 'pointer' }}
          data-testid={`balance-${channel.id}`}
        >
          {update.isPending
            ? t`Updating…`
            : known
              ? formatMoney(channel.balance)
              : t({ message: 'Unknown', context: 'balance' })}
        </Badge>
      </UnstyledButton>
    </Tooltip>
  );
}
