import { Trans } from '@lingui/react/macro';
import { Alert, Box, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SignInPrompt } from './SignInPrompt.tsx';
import { useChatLink } from './useChatLink.ts';

/** /chat2link — the redirect variant: opens the chat client itself instead of framing it. */
export default function Chat2LinkPage() {
  const [params] = useSearchParams();
  const index = Number.parseInt(params.get('index') ?? '0', 10);
  const link = useChatLink(Number.isNaN(index) || index < 0 ? 0 : index);
  useEffect(() => {
    if (link.kind === 'ready') window.location.replace(link.url);
  }, [link]);
  if (link.kind === 'signed-out') return <SignInPrompt />;
  if (link.kind === 'error')
    return (
      <Box p="lg" maw={640} mx="auto">
        <Alert color="red" data-testid="chat-error">
          {link.message}
        </Alert>
      </Box>
    );
  return (
    <Center h="calc(100dvh - 60px)">
      <Stack align="center" gap="xs">
        <Loader />
        <Text c="dimmed" size="sm">
          <Trans>Opening the chat…</Trans>
        </Text>
      </Stack>
    </Center>
  );
}
