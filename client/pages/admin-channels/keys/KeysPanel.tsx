import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Loader, Pagination, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconBan, IconCheck, IconChecks } from '@tabler/icons-react';
import { useState } from 'react';
import { ChannelStatus } from '../../../../shared/constants.ts';
import { errorMessage, showError, showSuccess } from '../../../lib/errors.ts';
import { formatTimestamp } from '../../../lib/format.ts';
import { serverTextInLanguage } from '../../../lib/server-messages.ts';
import { trpc } from '../../../trpc.ts';

const PAGE_SIZE = 50;

/** One key's status as a badge: enabled, disabled by an admin, or disabled automatically. */
export function KeyStatusBadge({ status }: { status: number }) {
  const { t } = useLingui();
  if (status === ChannelStatus.AutoDisabled)
    return (
      <Badge tt="none" color="orange" variant="light" style={{ whiteSpace: 'nowrap' }}>
        {t`Auto-disabled`}
      </Badge>
    );
  if (status === ChannelStatus.ManuallyDisabled)
    return (
      <Badge tt="none" color="gray" variant="light" style={{ whiteSpace: 'nowrap' }}>
        {t`Disabled`}
      </Badge>
    );
  return (
    <Badge tt="none" color="teal" variant="light" style={{ whiteSpace: 'nowrap' }}>
      {t`Enabled`}
    </Badge>
  );
}

/**
 * The keys of a multi-key channel (issue 28): each masked, with its status, why and when it was
 * disabled, and enable / disable per key and "enable all". Keys are never shown whole here.
 */
export function KeysPanel({ channelId }: { channelId: number }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const utils = trpc.useUtils();
  const keys = trpc.channels.keys.useQuery(
    { id: channelId, page, pageSize: PAGE_SIZE },
    { refetchInterval: 5000, placeholderData: (prev) => prev },
  );
  const manage = trpc.channels.manageKeys.useMutation({
    onSuccess: () => {
      showSuccess(t`Operation successful`);
      void utils.channels.keys.invalidate({ id: channelId });
      void utils.channels.list.invalidate();
    },
    onError: showError,
  });

  if (keys.isLoading) return <Loader size="sm" />;
  if (keys.error) return <Alert color="red">{errorMessage(keys.error)}</Alert>;
  const data = keys.data!;
  const total = data.enabled_count + data.manual_disabled_count + data.auto_disabled_count;
  const enabled = data.enabled_count;
  const busy = (index: number) => manage.isPending && manage.variables?.index === index;

  return (
    <Stack gap="sm" data-testid="keys-panel">
      <Group justify="space-between" align="center" gap="xs">
        <Group gap={6}>
          <Text size="sm" fw={500} data-testid="keys-summary">
            {plural(total, { one: `${enabled} of # key enabled`, other: `${enabled} of # keys enabled` })}
          </Text>
          {data.auto_disabled_count > 0 && (
            <Badge tt="none" color="orange" variant="outline" size="sm">
              {t`${data.auto_disabled_count} auto-disabled`}
            </Badge>
          )}
          {data.manual_disabled_count > 0 && (
            <Badge tt="none" color="gray" variant="outline" size="sm">
              {t`${data.manual_disabled_count} disabled by an admin`}
            </Badge>
          )}
        </Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconChecks size={14} />}
          disabled={enabled === total}
          loading={manage.isPending && manage.variables?.action === 'enable_all_keys'}
          onClick={() => manage.mutate({ id: channelId, action: 'enable_all_keys' })}
        >
          <Trans>Enable all</Trans>
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {data.multi_key_mode === 'polling'
          ? t`Keys are used in turn. A key the upstream rejects is disabled automatically and kept; the channel is disabled only when no key is left.`
          : t`Keys are picked at random. A key the upstream rejects is disabled automatically and kept; the channel is disabled only when no key is left.`}
      </Text>
      <Stack gap={6}>
        {data.keys.map((k) => (
          <Paper key={k.index} withBorder px="sm" py={8} radius="sm" data-testid="key-row">
            <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Group gap={8} wrap="nowrap">
                  <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    #{k.index + 1}
                  </Text>
                  <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {k.key_preview}
                  </Text>
                  <KeyStatusBadge status={k.status} />
                </Group>
                {k.status !== ChannelStatus.Enabled && (
                  <KeyReason
                    reason={k.reason}
                    time={k.disabled_time}
                    manual={k.status === ChannelStatus.ManuallyDisabled}
                  />
                )}
              </Stack>
              {k.status === ChannelStatus.Enabled ? (
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconBan size={14} />}
                  loading={busy(k.index) && manage.variables?.action === 'disable_key'}
                  onClick={() => manage.mutate({ id: channelId, action: 'disable_key', index: k.index })}
                >
                  <Trans>Disable</Trans>
                </Button>
              ) : (
                <Button
                  size="compact-sm"
                  variant="light"
                  color="teal"
                  leftSection={<IconCheck size={14} />}
                  loading={busy(k.index) && manage.variables?.action === 'enable_key'}
                  onClick={() => manage.mutate({ id: channelId, action: 'enable_key', index: k.index })}
                >
                  <Trans>Enable</Trans>
                </Button>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      {data.total_pages > 1 && (
        <Group justify="center">
          <Pagination size="sm" total={data.total_pages} value={data.page} onChange={setPage} />
        </Group>
      )}
      {data.channel_status === ChannelStatus.AutoDisabled && (
        <Alert color="orange" variant="light">
          <Trans>Every key is disabled, so the channel is too. Enabling a key enables the channel again.</Trans>
        </Alert>
      )}
    </Stack>
  );
}

/** Why and when a key was disabled: the reason on up to two lines (whole on hover or touch), the time beside it. */
function KeyReason({ reason, time, manual }: { reason?: string; time?: number; manual: boolean }) {
  const { t } = useLingui();
  const text = manual ? t`Disabled by an admin` : reason ? serverTextInLanguage(reason) : t`No reason recorded`;
  return (
    <Group gap={8} wrap="wrap" style={{ minWidth: 0, rowGap: 2 }}>
      <Tooltip label={text} multiline maw={360} withinPortal events={{ hover: true, focus: true, touch: true }}>
        <Text
          size="xs"
          c={manual ? 'dimmed' : 'orange'}
          lineClamp={2}
          style={{ flex: '1 1 180px', minWidth: 0, cursor: 'help' }}
          data-testid="key-reason"
        >
          {text}
        </Text>
      </Tooltip>
      {time ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatTimestamp(time)}
        </Text>
      ) : null}
    </Group>
  );
}
