import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { copyText } from '../../components/clipboard.tsx';
import type { ReactNode } from 'react';
import { Money } from '../../components/Money.tsx';
import { trpc } from '../../trpc.ts';
import { AffTransfer } from './settings/AffTransfer.tsx';
import type { SelfUser } from './types.ts';

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** Invite link with the user's code, and what inviting has earned. */
export function InviteCard({ user }: { user: SelfUser }) {
  const { t } = useLingui();
  const code = trpc.users.affCode.useQuery();
  const link = code.data ? `${window.location.origin}/register?aff=${code.data}` : '';
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Text fw={600}>{t`Invite friends`}</Text>
        {code.isLoading ? (
          <Skeleton h={32} />
        ) : (
          <Group gap="xs" wrap="nowrap">
            <Code style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{link}</Code>
            <Tooltip label={t`Copy invite link`}>
              <ActionIcon variant="light" aria-label={t`Copy invite link`} onClick={() => void copyText(link)}>
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
        <SimpleGrid cols={3} spacing="xs">
          <Figure label={t`Invited`} value={String(user.aff_count)} />
          <Figure label={t`Pending reward`} value={<Money quota={user.aff_quota} balance />} />
          <Figure label={t`Total reward`} value={<Money quota={user.aff_history_quota} />} />
        </SimpleGrid>
        {/* Settings engineer: moving invite quota to the balance (minimum one unit). */}
        <Group>
          <AffTransfer />
        </Group>
      </Stack>
    </Paper>
  );
}
