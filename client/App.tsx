import { Trans } from '@lingui/react/macro';
import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { RouterProvider } from 'react-router-dom';
import { StatusProvider, useStatusQuery } from './lib/status-context.tsx';
import { createRouter } from './routes.tsx';

// One router for the page's life (StrictMode would run a useState initialiser twice).
const router = createRouter();

function StatusFailure() {
  return (
    <Center h="100vh" p="lg">
      <Stack align="center" gap="xs" ta="center">
        <Title order={3}>
          <Trans>Unable to connect to server</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Failed to load status</Trans>
        </Text>
        <Button variant="light" mt="sm" onClick={() => window.location.reload()}>
          <Trans>Retry</Trans>
        </Button>
      </Stack>
    </Center>
  );
}

/** Loads the status object, then renders the routed console. */
export function App() {
  const { status, loading } = useStatusQuery();
  if (!status && loading)
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  if (!status) return <StatusFailure />;
  return (
    <StatusProvider status={status}>
      <RouterProvider router={router} />
    </StatusProvider>
  );
}
