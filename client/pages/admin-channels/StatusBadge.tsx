import { useLingui } from '@lingui/react/macro';
import { Stack, Text, Tooltip } from '@mantine/core';
import { ChannelStatus } from '../../../shared/constants.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { serverTextInLanguage, storedMessageInLanguage } from '../../lib/server-messages.ts';
import { type ChannelRow, statusInfo } from './types.ts';
import { StatusDot } from '../../components/StatusDot.tsx';

/** 1 enabled, 2 manually disabled, 3 auto-disabled (reason and time in a tooltip), else unknown. */
export function ChannelStatusBadge({ channel }: { channel: ChannelRow }) {
  const { t } = useLingui();
  if (channel.status === ChannelStatus.Enabled) return <StatusDot color="teal">{t`Enabled`}</StatusDot>;
  if (channel.status === ChannelStatus.ManuallyDisabled) return <StatusDot color="gray">{t`Disabled`}</StatusDot>;
  if (channel.status === ChannelStatus.AutoDisabled) {
    const info = statusInfo(channel);
    // The gateway's own words in the console's language; an upstream's as it said them.
    const reason = info?.message ? storedMessageInLanguage(info.message) : serverTextInLanguage(info?.reason ?? '');
    return (
      <Tooltip
        withinPortal
        multiline
        maw={320}
        label={
          <Stack gap={2}>
            <Text size="xs">{reason || t`No reason recorded`}</Text>
            {info?.time ? (
              <Text size="xs" c="dimmed">
                {formatTimestamp(info.time)}
              </Text>
            ) : null}
          </Stack>
        }
      >
        <StatusDot color="orange" style={{ cursor: 'help' }} data-testid="auto-disabled">
          {t`Auto-disabled`}
        </StatusDot>
      </Tooltip>
    );
  }
  return <StatusDot color="gray">{t`Unknown`}</StatusDot>;
}
