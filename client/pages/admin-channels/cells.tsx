import { Plural, useLingui } from '@lingui/react/macro';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconTag } from '@tabler/icons-react';
import { ChannelStatus } from '../../../shared/constants.ts';
import { StatusDot } from '../../components/StatusDot.tsx';
import { KeyCount } from './keys/KeyCount.tsx';
import { type ChannelRow, lastOutcome, showsFailure, splitCsv } from './types.ts';

export function NameCell({ channel }: { channel: ChannelRow }) {
  const { t } = useLingui();
  const outcome = lastOutcome(channel);
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500} miw={120} maw={240} lineClamp={2}>
        {channel.name || '-'}
      </Text>
      {channel.tag && (
        <Group gap={4} wrap="nowrap">
          <IconTag size={12} color="var(--mantine-color-dimmed)" />
          <Text size="xs" c="dimmed">
            {channel.tag}
          </Text>
        </Group>
      )}
      <KeyCount channel={channel} />
      {showsFailure(outcome) && (
        // Phones see the name but scroll for the response time column: the failure shows here too.
        <Group gap={4} wrap="nowrap" hiddenFrom="sm" data-testid="name-test-failed">
          <IconAlertTriangle size={12} color="var(--mantine-color-red-6)" />
          <Text size="xs" c="red">
            {outcome.source === 'call' ? t`Calls failing` : t`Test failed`}
          </Text>
        </Group>
      )}
    </Stack>
  );
}

export function TagNameCell({ tag, count }: { tag: string; count: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Badge leftSection={<IconTag size={12} />} variant="light" color="violet" tt="none">
        {tag}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        <Plural value={count} one="# channel" other="# channels" />
      </Text>
    </Group>
  );
}

export function GroupBadges({ groups }: { groups: string[] }) {
  return (
    <Group gap={4}>
      {groups.map((g) => (
        <Badge key={g} variant="outline" color="gray" tt="none" size="sm">
          {g}
        </Badge>
      ))}
    </Group>
  );
}

/** "3 / 4 enabled" for a tag. */
export function TagStatus({ channels }: { channels: ChannelRow[] }) {
  const { t } = useLingui();
  const on = channels.filter((c) => c.status === ChannelStatus.Enabled).length;
  const color = on === channels.length ? 'teal' : on === 0 ? 'gray' : 'yellow';
  return (
    <StatusDot color={color} style={{ whiteSpace: 'nowrap' }}>
      {t`${on} / ${channels.length} enabled`}
    </StatusDot>
  );
}

export const unionGroups = (channels: ChannelRow[]) => [...new Set(channels.flatMap((c) => splitCsv(c.group)))];
