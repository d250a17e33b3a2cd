import { Trans } from '@lingui/react/macro';
import { Button, Card, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** /app/wallet/topup-success: where the payment gateway sends the user back. */
export default function TopUpSuccessPage() {
  return (
    <Center p="lg" mih="60vh">
      <Card withBorder radius="md" padding="xl" maw={460} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={64} radius="xl" color="green" variant="light">
            <IconCircleCheck size={40} />
          </ThemeIcon>
          <Title order={3}>
            <Trans>Top-up successful</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>The quota has been added to your balance. It may take a moment to show.</Trans>
          </Text>
          <Group mt="sm">
            <Button component={Link} to="/app/wallet">
              <Trans>Back to wallet</Trans>
            </Button>
            <Button component={Link} to="/" variant="default">
              <Trans context="go back">Home</Trans>
            </Button>
          </Group>
        </Stack>
      </Card>
    </Center>
  );
}
