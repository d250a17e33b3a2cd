import { Trans } from '@lingui/react/macro';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

/** Any unknown path (accounts spec §2). */
export default function NotFoundPage() {
  return (
    <Center mih="calc(100vh - 180px)" p="lg">
      <Stack align="center" gap="sm" ta="center">
        <Text fz={72} fw={800} c="dimmed" lh={1} style={{ opacity: 0.35 }}>
          404
        </Text>
        <Title order={2}>
          <Trans>Page not found</Trans>
        </Title>
        <Text c="dimmed" maw={420}>
          <Trans>The page does not exist. Please check the address.</Trans>
        </Text>
        <Button component={Link} to="/" variant="light" mt="sm">
          <Trans>Back to home</Trans>
        </Button>
      </Stack>
    </Center>
  );
}
