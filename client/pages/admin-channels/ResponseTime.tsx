import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { formatTimestamp } from '../../lib/format.ts';
import { type ChannelRow, responseColor } from './types.ts';

/** The last test's response time; a click tests the channel again. */
export function ResponseTime({
  channel,
  onTest,
  testing,
}: {
  channel: ChannelRow;
  onTest: () => void;
  testing: boolean;
}) {
  const { t } = useLingui();
  const ms = channel.response_time;
  const label = ms === 0 ? t`Untested` : `${(ms / 1000).toFixed(2)} s`;
  const tip = channel.test_time ? t`Tested ${formatTimestamp(channel.test_time)}; click to test` : t`Click to test`;
  return (
    <Tooltip label={tip} withinPortal>
      <UnstyledButton onClick={onTest} disabled={testing} aria-label={t`Test channel`}>
        <Badge
          color={responseColor(ms)}
          variant="light"
          tt="none"
          style={{ cursor: 'pointer' }}
          data-testid="response-time"
        >
          {testing ? t`Testing…` : label}
        </Badge>
      </UnstyledButton>
    </Tooltip>
  );
}
