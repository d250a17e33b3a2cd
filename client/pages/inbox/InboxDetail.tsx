import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { TRPCClientError } from '@trpc/client';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { Page } from '../../components/Page.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { showError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { noticeInLanguage } from '../../lib/server-messages.ts';
import { trpc } from '../../trpc.ts';
import { MessageContent } from './MessageContent.tsx';

const isNotFound = (e: unknown) =>
  e instanceof TRPCClientError && ['NOT_FOUND', 'BAD_REQUEST'].includes((e.data as { code?: string })?.code ?? '');

/** One message. Opening an unread message marks it read and refreshes the bell and the list. */
export function InboxDetail({ id: rawId }: { id: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const id = Number(rawId);
  const validId = Number.isSafeInteger(id) && id > 0;
  // Its failures are said below (a missing message has its own wording and sends the reader back).
  const message = trpc.inbox.get.useQuery({ id }, { enabled: validId, meta: { ownErrorDisplay: true } });
  const markRead = trpc.inbox.markRead.useMutation({
    onSuccess: (item) => {
      utils.inbox.get.setData({ id }, item);
      void utils.inbox.unreadCount.invalidate();
      void utils.inbox.list.invalidate();
    },
  });
  const marked = useRef<number | null>(null);

  // Someone else's message, a deleted one or a made-up id: say so and go back to the list.
  const missing = !validId || (message.isError && isNotFound(message.error));
  useEffect(() => {
    if (missing) {
      showError(t`Message does not exist`);
      navigate('/app/inbox', { replace: true });
    } else if (message.isError) showError(message.error);
  }, [missing, message.isError, message.error, navigate, t]);

  const data = message.data;
  useEffect(() => {
    if (data && !data.is_read && marked.current !== data.id) {
      marked.current = data.id;
      markRead.mutate({ id: data.id });
    }
  }, [data, markRead]);

  const back = (
    <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/app/inbox')} px="xs">
      <Trans>Back to inbox</Trans>
    </Button>
  );
  if (!data) return <Page>{message.isLoading ? <PageLoader /> : back}</Page>;

  const { title, content } = noticeInLanguage(data);
  const sent = formatTimestamp(data.created_at);
  const read = data.read_at ? formatTimestamp(data.read_at) : null;
  return (
    <Page maxWidth={960}>
      <Group>{back}</Group>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm">
          <Group gap="sm" align="center" wrap="wrap">
            <Title order={3} fz={{ base: 18, sm: 22 }} style={{ wordBreak: 'break-word' }} data-testid="message-title">
              {title}
            </Title>
            {data.format !== 'markdown' && (
              <Badge color="blue" variant="light" tt="uppercase">
                {data.format}
              </Badge>
            )}
          </Group>
          <Group wrap="wrap" style={{ columnGap: 24, rowGap: 2 }}>
            <Text size="sm" c="dimmed">
              <Trans>Sent: {sent}</Trans>
            </Text>
            {read && (
              <Text size="sm" c="dimmed" data-testid="message-read-at">
                <Trans>Read: {read}</Trans>
              </Text>
            )}
          </Group>
          <Divider />
          <MessageContent content={content} format={data.format} />
        </Stack>
      </Paper>
    </Page>
  );
}
