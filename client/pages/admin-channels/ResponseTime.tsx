import { useLingui } from '@lingui/react/macro';
import { Badge, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CellText } from '../../components/CellText.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { serverTextInLanguage, storedMessageInLanguage } from '../../lib/server-messages.ts';
import { type ChannelRow, lastTest, responseColor } from './types.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The last test in the row (issue 28): its latency coloured as spec §4's response-time badge, or a
 * red "Test failed" with the reason on hover; under it when the test ran ("3 min ago"). A click
 * tests the channel again.
 */
export function ResponseTime({
  channel,
  onTest,
  testing,
}: {
  channel: ChannelRow;
  onTest: () => void;
  testing: boolean;
}) {
  const { t, i18n } = useLingui();
  const last = lastTest(channel);
  const when = last.state === 'untested' ? '' : (relativeTime(last.time, i18n.locale) ?? formatTimestamp(last.time));
  // The gateway's own words in the console's language; an upstream's as it said them.
  const reason =
    last.state === 'failed'
      ? (last.message ? storedMessageInLanguage(last.message) : serverTextInLanguage(last.reason)) ||
        t`No reason recorded`
      : '';

  const badge = testing ? (
    <Badge color="gray" variant="light" tt="none">{t`Testing…`}</Badge>
  ) : last.state === 'failed' ? (
    <Badge color="red" variant="light" tt="none" leftSection={<IconAlertTriangle size={12} />} data-state="failed">
      {t`Test failed`}
    </Badge>
  ) : last.state === 'passed' ? (
    // A pass faster than a millisecond is still a pass: never the grey of "untested".
    <Badge color={responseColor(Math.max(1, last.ms))} variant="light" tt="none" data-state="passed">
      {seconds(last.ms)}
    </Badge>
  ) : (
    <Badge color="gray" variant="light" tt="none" data-state="untested">
      {t`Untested`}
    </Badge>
  );

  const took = last.state === 'untested' ? '' : seconds(last.ms);
  const testedAt = last.state === 'untested' ? '' : formatTimestamp(last.time);
  const tip =
    last.state === 'untested' ? (
      t`Click to test`
    ) : (
      <Stack gap={2}>
        {last.state === 'failed' && (
          <Text size="xs" fw={500} style={{ wordBreak: 'break-word' }}>
            {reason}
          </Text>
        )}
        <Text size="xs">{last.state === 'failed' ? t`Failed after ${took}` : t`Answered in ${took}`}</Text>
        {last.time > 0 && <Text size="xs">{t`Tested ${testedAt}`}</Text>}
        <Text size="xs" c="dimmed">{t`Click to test again`}</Text>
      </Stack>
    );

  return (
    <Tooltip label={tip} withinPortal multiline maw={360}>
      <UnstyledButton
        onClick={onTest}
        disabled={testing}
        aria-label={t`Test channel`}
        data-testid="response-time"
        style={{ cursor: 'pointer' }}
      >
        <Stack gap={2} align="flex-start">
          {badge}
          {!testing && when && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="tested-when">
              {last.state === 'failed' ? `${when} · ${seconds(last.ms)}` : when}
            </Text>
          )}
          {!testing && last.state === 'failed' && (
            // Also in the row, not only on hover: a phone has no hover. One line at most 180 px, so a
            // long upstream error never widens the table (issue 45); the badge's tooltip has all of it.
            <CellText size="xs" c="red" maxWidth={180} withTooltip={false} data-testid="test-reason">
              {reason}
            </CellText>
          )}
        </Stack>
      </UnstyledButton>
    </Tooltip>
  );
}
