import { Box, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

/** The centred card of the sign-in, registration and setup screens. */
export function AuthCard({ title, subtitle, children, footer, width = 420 }: AuthCardProps) {
  return (
    <Center mih="calc(100vh - 140px)" px="sm" py="xl">
      <Box w="100%" maw={width}>
        <Stack align="center" gap={6} mb="lg" ta="center">
          <ThemeIcon size={44} radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 135 }}>
            <IconRoute size={24} />
          </ThemeIcon>
          <Title order={2} fz={24} mt={6}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          )}
        </Stack>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
          {children}
        </Paper>
        {footer && (
          <Text ta="center" size="sm" c="dimmed" mt="md">
            {footer}
          </Text>
        )}
      </Box>
    </Center>
  );
}
