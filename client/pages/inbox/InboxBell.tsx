import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { UNREAD_POLL_MS } from '../../../shared/schemas/messages.ts';
import { trpc } from '../../trpc.ts';

/** The badge text: the count, capped at "99+". */
export const badgeLabel = (n: number) => (n > 99 ? '99+' : String(n));

/** Top-bar bell with the unread count, polled every 30 s (spec §2.14, §9). */
export function InboxBell() {
  const { t } = useLingui();
  const unread = trpc.inbox.unreadCount.useQuery(undefined, {
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const count = unread.data?.unread_count ?? 0;
  const label = count > 0 ? t`Inbox, ${count} unread` : t`Inbox`;
  return (
    <Indicator
      label={badgeLabel(count)}
      disabled={count === 0}
      color="red"
      size={16}
      offset={6}
      inline
      data-testid="inbox-badge"
      styles={{ indicator: { fontSize: 10, padding: '0 4px' } }}
    >
      <ActionIcon
        component={Link}
        to="/app/inbox"
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        title={label}
        data-testid="inbox-bell"
      >
        <IconBell size={18} />
      </ActionIcon>
    </Indicator>
  );
}
