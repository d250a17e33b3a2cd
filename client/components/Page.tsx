import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageProps {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  /** Narrow pages (forms) cap their width. */
  maxWidth?: number;
}

/** Standard page frame: padded content with an optional title row and actions. */
export function Page({ title, description, actions, children, maxWidth }: PageProps) {
  return (
    <Box p={{ base: 'sm', sm: 'lg' }} maw={maxWidth} mx={maxWidth ? 'auto' : undefined}>
      <Stack gap="md">
        {(title || actions) && (
          <Group justify="space-between" align="flex-end" gap="sm">
            <div>
              {title && (
                <Title order={2} fz={{ base: 20, sm: 24 }}>
                  {title}
                </Title>
              )}
              {description && (
                <Text c="dimmed" size="sm" mt={4}>
                  {description}
                </Text>
              )}
            </div>
            {actions && <Group gap="xs">{actions}</Group>}
          </Group>
        )}
        {children}
      </Stack>
    </Box>
  );
}
