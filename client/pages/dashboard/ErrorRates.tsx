import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Card, SimpleGrid, Skeleton, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';

/** How many models or channels each table lists (the most errors first). */
const TOP = 10;

export interface RateRow {
  key: string;
  label: ReactNode;
  title: string;
  requests: number;
  errors: number;
}

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

function RateTable({ first, rows, testId }: { first: ReactNode; rows: RateRow[]; testId: string }) {
  const { t } = useLingui();
  const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
  const nowrap = { whiteSpace: 'nowrap' } as const;
  return (
    <Table verticalSpacing={6} layout="fixed" data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{first}</Table.Th>
          <Table.Th ta="right" w={84} style={nowrap}>
            {t`Requests`}
          </Table.Th>
          <Table.Th ta="right" w={68} style={nowrap}>
            {t`Errors`}
          </Table.Th>
          <Table.Th ta="right" w={84} style={nowrap}>
            {t`Error rate`}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.slice(0, TOP).map((r) => (
          <Table.Tr key={r.key}>
            <Table.Td>
              <Text size="sm" truncate="end" title={r.title}>
                {r.label}
              </Text>
            </Table.Td>
            <Table.Td ta="right" style={num}>
              {formatCount(r.requests)}
            </Table.Td>
            <Table.Td ta="right" style={num} fw={r.errors > 0 ? 600 : undefined}>
              {formatCount(r.errors)}
            </Table.Td>
            <Table.Td ta="right">
              <Badge variant="light" tt="none" color={rateColor(r.errors, r.requests)} style={num}>
                {formatErrorRate(r.errors, r.requests)}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Admins: how often calls fail, per model and per channel, in the dashboard's range (issue 28).
 * Requests are the answered calls plus every failed attempt (retried ones included).
 */
export function ErrorRates({ start, end }: { start: number; end: number }) {
  const { t } = useLingui();
  const q = trpc.dashboard.errors.useQuery({ start_timestamp: start, end_timestamp: end });
  const models: RateRow[] = (q.data?.models ?? []).map((m) => ({
    key: m.model_name,
    label: m.model_name || '-',
    title: m.model_name,
    requests: m.requests,
    errors: m.errors,
  }));
  const channels: RateRow[] = (q.data?.channels ?? []).map((c) => {
    const label = c.channel_id === 0 ? t`No channel tried (gateway refusals)` : `#${c.channel_id} ${c.channel_name}`;
    return { key: String(c.channel_id), label, title: label, requests: c.requests, errors: c.errors };
  });
  const errors = models.reduce((n, m) => n + m.errors, 0);
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
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            {/* Each table in a box of its own: a grid cell would stretch a shorter table's rows. */}
            <Box>
              <RateTable first={t`Model`} rows={models} testId="error-rates-models" />
            </Box>
            <Box>
              <RateTable first={t`Channel`} rows={channels} testId="error-rates-channels" />
            </Box>
          </SimpleGrid>
        </>
      )}
    </Card>
  );
}
