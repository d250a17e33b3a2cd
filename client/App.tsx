import { Trans } from '@lingui/react/macro';
import { Center, Loader, Title } from '@mantine/core';
import { trpc } from './trpc.ts';

export function App() {
  const status = trpc.status.get.useQuery();
  if (status.isLoading)
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  return (
    <Center h="100vh">
      <Title>
        <Trans>Welcome to {status.data?.system_name}</Trans>
      </Title>
    </Center>
  );
}
