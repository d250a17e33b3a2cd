import { useLingui } from '@lingui/react/macro';
import { Avatar, Box, Group, Loader, Paper, Stack, Text, Typography } from '@mantine/core';
import { IconRobot, IconUser } from '@tabler/icons-react';
import { markdownToSafeHtml } from '../../lib/markdown.ts';
import type { ChatMessage } from './useChat.ts';

/** One bubble per message; answers are rendered as sanitised markdown. */
export function MessageList({ messages }: { messages: ChatMessage[] }) {
  const { t } = useLingui();
  return (
    <Stack gap="md">
      {messages.map((m) => {
        const mine = m.role === 'user';
        return (
          <Group key={m.id} align="flex-start" wrap="nowrap" justify={mine ? 'flex-end' : 'flex-start'} gap="xs">
            {!mine && (
              <Avatar color="teal" radius="xl" size={32}>
                <IconRobot size={18} />
              </Avatar>
            )}
            <Paper
              px="md"
              py="xs"
              radius="md"
              maw="min(760px, 85%)"
              bg={mine ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default)'}
              withBorder={!mine}
              data-testid={`message-${m.role}`}
              data-status={m.status}
              style={m.status === 'error' ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
            >
              {m.reasoning && (
                <Text size="xs" c="dimmed" mb={6} style={{ whiteSpace: 'pre-wrap' }}>
                  {m.reasoning}
                </Text>
              )}
              {mine ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {m.content}
                </Text>
              ) : m.status === 'loading' ? (
                <Loader size="xs" type="dots" aria-label={t`Waiting for the answer`} />
              ) : (
                <Typography fz="sm">
                  <Box
                    c={m.status === 'error' ? 'red' : undefined}
                    style={{ wordBreak: 'break-word' }}
                    dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(m.content) }}
                  />
                </Typography>
              )}
            </Paper>
            {mine && (
              <Avatar color="indigo" radius="xl" size={32}>
                <IconUser size={18} />
              </Avatar>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
