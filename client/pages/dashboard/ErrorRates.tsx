import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { formatCount } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import { ModelAndChannelTables, type ShareColumns, type ShareRow } from './ShareTables.tsx';

/** An error rate as a percentage with one decimal below 10% ("0.4%", "12%"); "<0.1%" when tiny. */
export function formatErrorRate(errors: number, requests: number): string {
  if (requests <= 0 || errors <= 0) return '0%';
  const rate = (errors / requests) * 100;
  if (rate < 0.1) return '<0.1%';
  return rate < 10 ? `${rate.toFixed(1)}%` : `${Math.round(rate)}%`;
}

const rateColor = (errors: number, requests: number) => {
  const rate = requests > 0 ? errors / requests : 0;
  return rate >= 0.1 ? 'red' : rate >= 0.01 ? 'orange' : errors > 0 ? 'yellow' : 'green';
};

/**
 * Admins: how often calls fail, per model and per channel, in the dashboard's range (issue 28).
 * Requests are the answered calls plus every failed attempt (retried ones included).
 */
export function ErrorRates({ start, end }: { start: number; end: number }) {
  const { t } = useLingui();
  const q = trpc.dashboard.errors.useQuery({ start_timestamp: start, end_timestamp: end });
  const models: ShareRow[] = (q.data?.models ?? []).map((m) => ({
    key: m.model_name,
    label: m.model_name || '-',
    title: m.model_name,
    whole: m.requests,
    part: m.errors,
  }));
  const channels: ShareRow[] = (q.data?.channels ?? []).map((c) => {
    const label = c.channel_id === 0 ? t`No channel tried (gateway refusals)` : `#${c.channel_id} ${c.channel_name}`;
    return { key: String(c.channel_id), label, title: label, whole: c.requests, part: c.errors };
  });
  const errors = models.reduce((n, m) => n + m.part, 0);
  const columns: ShareColumns = {
    headers: [t`Requests`, t`Errors`, t`Error rate`],
    widths: [84, 68, 84],
    formatNumber: formatCount,
    formatShare: formatErrorRate,
    color: rateColor,
    boldPart: true,
  };
  return (
    <Card withBorder radius="md" padding="md" data-testid="error-rates">
      <Title order={4} fz="md">
        <Trans>Errors by model and by channel</Trans>
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        <Trans>
          All users. Requests count answered calls and failed attempts, retried ones included; the failures are the
          usage log's Error rows.
        </Trans>
      </Text>
      {q.isLoading ? (
        <Skeleton h={120} />
      ) : models.length === 0 && channels.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="error-rates-empty">
          <Trans>No requests in this range</Trans>
        </Text>
      ) : (
        <>
          {errors === 0 && (
            <Text size="sm" c="teal" mb="xs">
              <Trans>No errors in this range</Trans>
            </Text>
          )}
          <ModelAndChannelTables models={models} channels={channels} testId="error-rates" columns={columns} />
        </>
      )}
    </Card>
  );
}
