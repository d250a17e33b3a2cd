import { Trans } from '@lingui/react/macro';
import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/**
 * An administrator page opened by someone whose role does not reach it (issue 22): said plainly
 * instead of a silent redirect home. The server refuses the page's calls all the same.
 */
export default function ForbiddenPage({ rootOnly = false }: { rootOnly?: boolean }) {
  return (
    <Center mih="calc(100vh - 180px)" p="lg" data-testid="forbidden">
      <Stack align="center" gap="sm" ta="center">
        <IconLock size={56} stroke={1.4} style={{ opacity: 0.45 }} />
        <Title order={2}>
          <Trans>No permission</Trans>
        </Title>
        <Text c="dimmed" maw={440}>
          {rootOnly ? (
            <Trans>Only the super administrator can open this page.</Trans>
          ) : (
            <Trans>Only administrators can open this page. Ask an administrator if you need access.</Trans>
          )}
        </Text>
        <Group mt="sm">
          <Button component={Link} to="/app/tokens" variant="light">
            <Trans>Go to the console</Trans>
          </Button>
          <Button component={Link} to="/" variant="subtle">
            <Trans>Back to home</Trans>
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
