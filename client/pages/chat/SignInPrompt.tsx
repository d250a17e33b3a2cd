import { Trans } from '@lingui/react/macro';
import { Anchor, Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { loginUrl } from '../../lib/navigation.ts';
import { useStatus } from '../../lib/status-context.tsx';

/** A visitor opening a chat link: the chat client uses one of their tokens, so they sign in first (issue 22). */
export function SignInPrompt() {
  const status = useStatus();
  const location = useLocation();
  const canRegister = status.register_enabled && !status.self_use_mode_enabled;
  return (
    <Center mih="calc(100dvh - 60px)" p="md">
      <Paper withBorder radius="lg" p="xl" maw={440} w="100%" data-testid="chat-sign-in">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={52} radius="xl" variant="light">
            <IconMessageCircle size={28} />
          </ThemeIcon>
          <Title order={3}>
            <Trans>Log in to chat</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>The chat opens with one of your API tokens. Log in, and you come straight back here.</Trans>
          </Text>
          <Button component={Link} to={loginUrl(location.pathname + location.search)} fullWidth mt="xs">
            <Trans>Log in</Trans>
          </Button>
          {canRegister && (
            <Text size="sm" c="dimmed">
              <Trans>
                No account yet?{' '}
                <Anchor component={Link} to="/register" size="sm">
                  Register
                </Anchor>
              </Trans>
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
