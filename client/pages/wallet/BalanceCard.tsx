import { Trans } from '@lingui/react/macro';
import { Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconWallet } from '@tabler/icons-react';
import { Money } from '../../components/Money.tsx';
import { renderNumber } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';

/** Current balance, with what has been used and how many requests made. */
export function BalanceCard() {
  const balance = trpc.wallet.balance.useQuery();
  const stat = (label: ReactNode, value: ReactNode | undefined, testId?: string) => (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton h={28} w={100} />
      ) : (
        <Text fz={{ base: 18, sm: 26 }} fw={700} data-testid={testId}>
          {value}
        </Text>
      )}
    </Stack>
  );
  const d = balance.data;
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="md" align="flex-start" wrap="nowrap">
        <ThemeIcon size={44} radius="md" variant="light" visibleFrom="xs">
          <IconWallet size={26} />
        </ThemeIcon>
        <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'lg' }} style={{ flex: 1 }}>
          {stat(<Trans>Balance</Trans>, d && <Money quota={d.quota} balance />, 'wallet-balance')}
          {stat(<Trans>Used quota</Trans>, d && <Money quota={d.used_quota} />)}
          {stat(<Trans>Requests</Trans>, d && renderNumber(d.request_count))}
        </SimpleGrid>
      </Group>
    </Card>
  );
}
