import { useLingui } from '@lingui/react/macro';
import { Avatar, Badge, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconActivity, IconCoin, IconReceipt } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { RoleBadge } from '../../components/RoleBadge.tsx';
import { Money } from '../../components/Money.tsx';
import { renderNumber } from '../../lib/format.ts';
import type { SelfUser } from './types.ts';

function Stat({ icon, label, value, testId }: { icon: ReactNode; label: string; value: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} data-testid={testId}>
      <Group gap={6} c="dimmed" wrap="nowrap">
        <Box visibleFrom="xs" display="flex">
          {icon}
        </Box>
        <Text size="xs" fw={500} tt="uppercase" truncate>
          {label}
        </Text>
      </Group>
      <Text fz={{ base: 17, sm: 26 }} fw={700} mt={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Paper>
  );
}

/** Who the user is, with balance, historical consumption and request count. */
export function ProfileCard({ user }: { user: SelfUser }) {
  const { t } = useLingui();
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar size={56} radius="xl" color="indigo" name={user.username} />
          <div style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={700} size="lg" truncate>
                {user.display_name || user.username}
              </Text>
              <RoleBadge role={user.role} />
            </Group>
            <Group gap="xs" mt={4}>
              <Text size="sm" c="dimmed">
                @{user.username}
              </Text>
              <Badge variant="dot" color="gray" size="sm" tt="none">
                {t`Group ${user.group}`}
              </Badge>
            </Group>
          </div>
        </Group>
        <SimpleGrid cols={3} spacing={{ base: 6, sm: 'sm' }}>
          <Stat
            icon={<IconCoin size={16} />}
            label={t`Balance`}
            value={<Money quota={user.quota} balance />}
            testId="balance"
          />
          <Stat
            icon={<IconReceipt size={16} />}
            label={t`Used quota`}
            value={<Money quota={user.used_quota} />}
            testId="used"
          />
          <Stat
            icon={<IconActivity size={16} />}
            label={t`Requests`}
            value={renderNumber(user.request_count)}
            testId="requests"
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
