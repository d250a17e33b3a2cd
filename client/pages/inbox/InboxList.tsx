import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Paper, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants.ts';
import type { StoredNotice } from '../../../shared/stored-message.ts';
import { Page } from '../../components/Page.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { showError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { noticeInLanguage } from '../../lib/server-messages.ts';
import { trpc } from '../../trpc.ts';
import classes from './inbox.module.css';
import { InboxPager } from './InboxPager.tsx';
import { plainPreview, relativeTime } from './preview.ts';

interface Row {
  id: number;
  title: string;
  content: string;
  format: string;
  created_at: number;
  is_read: boolean;
  notice: StoredNotice | null;
}

function MessageRow({ row, onOpen }: { row: Row; onOpen: () => void }) {
  const { t, i18n } = useLingui();
  const when = relativeTime(row.created_at, i18n.locale) ?? formatTimestamp(row.created_at);
  const { title, content } = noticeInLanguage(row);
  return (
    <UnstyledButton
      className={classes.row}
      data-unread={!row.is_read || undefined}
      onClick={onOpen}
      data-testid="inbox-row"
      aria-label={row.is_read ? title : t`Unread: ${title}`}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          {!row.is_read && (
            <Badge color="red" size="sm" variant="filled" style={{ flexShrink: 0 }}>
              <Trans>Unread</Trans>
            </Badge>
          )}
          <Text fw={row.is_read ? 500 : 700} truncate>
            {title}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} title={formatTimestamp(row.created_at)}>
          {when}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" mt={4} lineClamp={2}>
        {plainPreview(content, row.format)}
      </Text>
    </UnstyledButton>
  );
}

function EmptyInbox() {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="inbox-empty">
      <Stack align="center" gap={6}>
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconMailOpened size={26} />
        </ThemeIcon>
        <Text fw={600}>
          <Trans>No messages</Trans>
        </Text>
        <Text size="sm" c="dimmed">
          <Trans>You have not received any messages</Trans>
        </Text>
      </Stack>
    </Paper>
  );
}

/** The paged inbox: unread rows highlighted, newest first. The page number lives in the URL (?p=). */
export function InboxList() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('p')) || 1);
  // A failed load says 'failed to load messages' (console spec §8), below, instead of the server's message.
  const list = trpc.inbox.list.useQuery(
    { page, pageSize: DEFAULT_PAGE_SIZE },
    { placeholderData: (prev) => prev, meta: { ownErrorDisplay: true } },
  );

  useEffect(() => {
    if (list.isError) showError(t`Failed to load messages`);
  }, [list.isError, t]);

  const data = list.data;
  return (
    <Page title={<Trans>Inbox</Trans>} maxWidth={960}>
      {list.isLoading ? (
        <PageLoader />
      ) : !data || data.total === 0 ? (
        <EmptyInbox />
      ) : (
        <>
          <Paper withBorder radius="md" className={classes.list}>
            {data.items.map((row) => (
              <MessageRow key={row.id} row={row} onOpen={() => navigate(`/app/inbox/${row.id}`)} />
            ))}
          </Paper>
          <InboxPager
            page={data.page}
            pageSize={data.page_size}
            total={data.total}
            onChange={(p) => setParams(p > 1 ? { p: String(p) } : {})}
          />
        </>
      )}
    </Page>
  );
}
