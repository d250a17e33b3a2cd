import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser } from '../../lib/user.ts';
import { BaseUrlCard } from './BaseUrlCard.tsx';
import { features } from './features.ts';
import classes from './home.module.css';

/** The default home page: what the gateway does and the base URL to point clients at. */
export function Hero() {
  const { t, i18n } = useLingui();
  const status = useStatus();
  const user = useStoredUser();
  const name = status.system_name || 'Switchyard';
  const consolePath = status.enable_data_export ? '/app/dashboard' : '/app/tokens';
  return (
    <Box className={classes.hero}>
      <Container size="lg" py={{ base: 40, sm: 72 }}>
        <Stack align="center" gap="lg" ta="center">
          <Badge variant="light" size="lg" radius="xl">
            {t`One API for every model`}
          </Badge>
          <Title className={classes.title}>{name}</Title>
          <Text className={classes.lead} c="dimmed">
            <Trans>
              A single OpenAI-compatible endpoint in front of OpenAI, Anthropic, Gemini and dozens of other providers.
              Keys, quotas, routing and usage logs in one place.
            </Trans>
          </Text>
          <Group gap="sm" justify="center">
            <Button
              component={Link}
              to={user ? consolePath : '/login'}
              size="md"
              rightSection={<IconArrowRight size={16} />}
            >
              {user ? t`Open console` : t`Get started`}
            </Button>
            <Button component={Link} to="/pricing" size="md" variant="default">
              {t`Model pricing`}
            </Button>
          </Group>
          <BaseUrlCard />
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mt={{ base: 40, sm: 64 }}>
          {features.map((f) => (
            <Box key={f.key} className={classes.feature}>
              <f.icon size={26} stroke={1.5} className={classes.featureIcon} />
              <Text fw={600} mt="sm">
                {i18n._(f.title)}
              </Text>
              <Text size="sm" c="dimmed" mt={4}>
                {i18n._(f.body)}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
