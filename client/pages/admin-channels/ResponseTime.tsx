import { useLingui } from '@lingui/react/macro';
import { Badge, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CellText } from '../../components/CellText.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { serverTextInLanguage, storedMessageInLanguage } from '../../lib/server-messages.ts';
import { type ChannelRow, lastOutcome, responseColor } from './types.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The last test in the row (issue 28): its latency coloured as spec §4's response-time badge, or a
 * red "Test failed" with the reason on hover; under it when the test ran ("3 min ago"). When the
 * relay's latest call came after the test (issue 45), the call's outcome instead: "Calls OK" or a red
 * "Calls failing" with the upstream's reason, the test's result kept in the tooltip. A click tests the
 * channel again.
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
  const outcome = lastOutcome(channel);
  const last = outcome.test;
  const ago = (time: number) => relativeTime(time, i18n.locale) ?? formatTimestamp(time);
  // The gateway's own words in the console's language; an upstream's as it said them.
  const testReason =
    last.state === 'failed'
      ? (last.message ? storedMessageInLanguage(last.message) : serverTextInLanguage(last.reason)) ||
        t`No reason recorded`
      : '';
  const testWhen = last.state === 'untested' ? '' : ago(last.time);
  const callFailure =
    outcome.source === 'call' && !outcome.ok
      ? [
          outcome.status > 0 ? String(outcome.status) : '',
          (i18n.locale.startsWith('zh') && outcome.zh) || serverTextInLanguage(outcome.message),
        ]
          .filter(Boolean)
          .join(' ') || t`No reason recorded`
      : '';
  const when = outcome.source === 'call' ? ago(outcome.time) : testWhen;
  const reason = outcome.source === 'call' ? callFailure : testReason;
  const failed = outcome.source === 'call' ? !outcome.ok : last.state === 'failed';

  const badge = testing ? (
    <Badge color="gray" variant="light" tt="none">{t`Testing…`}</Badge>
  ) : outcome.source === 'call' ? (
    outcome.ok ? (
      <Badge color="teal" variant="light" tt="none" data-state="calls-ok">
        {t`Calls OK`}
      </Badge>
    ) : (
      <Badge
        color="red"
        variant="light"
        tt="none"
        leftSection={<IconAlertTriangle size={12} />}
        data-state="calls-failing"
      >
        {t`Calls failing`}
      </Badge>
    )
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
  const calledAt = outcome.source === 'call' ? formatTimestamp(outcome.time) : '';
  const testLines =
    last.state === 'untested' ? null : (
      <>
        {last.state === 'failed' && (
          <Text size="xs" fw={outcome.source === 'test' ? 500 : undefined} style={{ wordBreak: 'break-word' }}>
            {testReason}
          </Text>
        )}
        <Text size="xs">{last.state === 'failed' ? t`Failed after ${took}` : t`Answered in ${took}`}</Text>
        {last.time > 0 && <Text size="xs">{t`Tested ${testedAt}`}</Text>}
      </>
    );
  const tip =
    outcome.source === 'call' ? (
      <Stack gap={2}>
        {outcome.ok ? (
          <Text size="xs" fw={500}>{t`The latest relayed call succeeded`}</Text>
        ) : (
          <>
            <Text size="xs" fw={500}>{t`The latest relayed call failed`}</Text>
            <Text size="xs" style={{ wordBreak: 'break-word' }}>
              {callFailure}
            </Text>
          </>
        )}
        <Text size="xs">{calledAt}</Text>
        {testLines && (
          <Text size="xs" c="dimmed" mt={4}>
            {t`Last test`}
          </Text>
        )}
        {testLines}
        <Text size="xs" c="dimmed">
          {last.state === 'untested' ? t`Click to test` : t`Click to test again`}
        </Text>
      </Stack>
    ) : last.state === 'untested' ? (
      t`Click to test`
    ) : (
      <Stack gap={2}>
        {testLines}
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
              {outcome.source === 'test' && last.state === 'failed' ? `${when} · ${seconds(last.ms)}` : when}
            </Text>
          )}
          {!testing && failed && (
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
