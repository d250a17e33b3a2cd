import '@mantine/charts/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { renderNumber, renderQuota } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { type ChartData, chartRows, type Granularity, OTHER, summarize } from './series.ts';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'gray.6'];
const RANGES = [
  { value: '86400', days: 1 },
  { value: '604800', days: 7 },
  { value: '2592000', days: 30 },
];

function ChartCard({ title, empty, children }: { title: ReactNode; empty: boolean; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={4} fz="md" mb="sm">
        {title}
      </Title>
      {empty ? (
        <Center h={260}>
          <Text c="dimmed" size="sm">
            <Trans>No data in this range</Trans>
          </Text>
        </Center>
      ) : (
        children
      )}
    </Card>
  );
}

function SummaryCard({ label, value }: { label: ReactNode; value: string }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={24} fw={700} mt={4}>
        {value}
      </Text>
    </Card>
  );
}

/** /app/dashboard: consumption, requests and tokens per model over time (spec §2.15 data export). */
export default function DashboardPage() {
  const { t } = useLingui();
  const status = useStatus();
  const admin = userIsAdmin(useStoredUser());
  const [granularity, setGranularity] = useState<Granularity>(() =>
    ['hour', 'day', 'week'].includes(status.data_export_default_time)
      ? (status.data_export_default_time as Granularity)
      : 'hour',
  );
  const [range, setRange] = useState('604800');
  const [username, setUsername] = useState('');
  const [applied, setApplied] = useState({ range, username: '' });

  const input = useMemo(() => {
    const end = Math.floor(Date.now() / 1000) + 3600;
    return { start_timestamp: end - 3600 - Number(applied.range), end_timestamp: end, username: applied.username };
  }, [applied]);
  const data = trpc.dashboard.data.useQuery(input);
  const buckets = useMemo(() => data.data ?? [], [data.data]);

  const seriesName = (m: string) => (m === OTHER ? t`Other` : m);
  const charts = useMemo(
    () => ({
      quota: chartRows(buckets, granularity, 'quota'),
      count: chartRows(buckets, granularity, 'count'),
      tokens: chartRows(buckets, granularity, 'token_used'),
    }),
    [buckets, granularity],
  );
  const summary = summarize(buckets);
  const minutes = Number(applied.range) / 60;
  const series = (c: ChartData) =>
    c.series.map((m, i) => ({ name: m, label: seriesName(m), color: COLORS[i % COLORS.length] }));
  const empty = buckets.length === 0;
  const rangeLabel: Record<string, string> = {
    '86400': t`Last 24 hours`,
    '604800': t`Last 7 days`,
    '2592000': t`Last 30 days`,
  };

  return (
    <Page title={<Trans>Dashboard</Trans>}>
      <Card withBorder radius="md" padding="md">
        <Group gap="sm" align="flex-end">
          <Select
            label={t`Range`}
            value={range}
            allowDeselect={false}
            onChange={(v) => setRange(v ?? '604800')}
            data={RANGES.map((r) => ({ value: r.value, label: rangeLabel[r.value] }))}
            w={180}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              <Trans>Granularity</Trans>
            </Text>
            <SegmentedControl
              value={granularity}
              onChange={(v) => setGranularity(v as Granularity)}
              data={[
                { value: 'hour', label: t`Hour` },
                { value: 'day', label: t`Day` },
                { value: 'week', label: t`Week` },
              ]}
            />
          </div>
          {admin && (
            <TextInput
              label={t`Username`}
              placeholder={t`All users`}
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              w={200}
            />
          )}
          <Button
            leftSection={<IconSearch size={16} />}
            loading={data.isFetching}
            onClick={() => {
              setApplied({ range, username: username.trim() });
              void data.refetch();
            }}
          >
            <Trans>Query</Trans>
          </Button>
        </Group>
      </Card>
      {data.error && <Alert color="red">{errorMessage(data.error)}</Alert>}
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <SummaryCard label={<Trans>Consumed</Trans>} value={renderQuota(summary.quota)} />
        <SummaryCard label={<Trans>Requests</Trans>} value={renderNumber(summary.count)} />
        <SummaryCard label={<Trans>Tokens</Trans>} value={renderNumber(summary.tokens)} />
        <SummaryCard label={<Trans>Avg. requests / min</Trans>} value={(summary.count / minutes).toFixed(3)} />
      </SimpleGrid>
      <ChartCard title={<Trans>Consumption by model</Trans>} empty={empty}>
        <BarChart
          h={280}
          data={charts.quota.rows}
          dataKey="slot"
          type="stacked"
          series={series(charts.quota)}
          valueFormatter={(v) => renderQuota(v)}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
        />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
        <ChartCard title={<Trans>Requests by model</Trans>} empty={empty}>
          <LineChart
            h={260}
            data={charts.count.rows}
            dataKey="slot"
            series={series(charts.count)}
            curveType="monotone"
            withDots={false}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
          />
        </ChartCard>
        <ChartCard title={<Trans>Tokens by model</Trans>} empty={empty}>
          <AreaChart
            h={260}
            data={charts.tokens.rows}
            dataKey="slot"
            type="stacked"
            series={series(charts.tokens)}
            valueFormatter={(v) => renderNumber(v)}
            withDots={false}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
          />
        </ChartCard>
      </SimpleGrid>
    </Page>
  );
}
