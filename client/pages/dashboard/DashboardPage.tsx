import '@mantine/charts/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconChartBar, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatCount, renderQuota } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { CacheShares } from './CacheShares.tsx';
import { ErrorRates } from './ErrorRates.tsx';
import { ModelBreakdown } from './ModelBreakdown.tsx';
import { chartRows, compactTick, formatRate, type Granularity, modelTotals, OTHER, summarize } from './series.ts';
import { UsageChart } from './UsageChart.tsx';

const COLORS = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink', 'gray'];
const RANGES = [
  { value: '86400', days: 1 },
  { value: '604800', days: 7 },
  { value: '2592000', days: 30 },
];

function ChartCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={4} fz="md" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Figure({
  label,
  value,
  hint,
  testId,
}: {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
}) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text
        fz={{ base: 18, sm: 22 }}
        fw={700}
        mt={2}
        component="div"
        style={{ overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId && `${testId}-value`}
      >
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

/** /app/dashboard: the account, the range's usage and rates, and usage per model over time (spec §2.15 data export). */
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
  const [applied, setApplied] = useState({ range, username: '', at: Date.now() });

  // Buckets are whole hours named by their start: the range begins at the first whole hour in it
  // (a bucket started before would be cut off and read as idle), so it never spans more than
  // the range (a user's own view may span 30 days at most) and ends with the current hour.
  const span = useMemo(() => {
    const now = Math.floor(applied.at / 1000);
    return { start: Math.ceil((now - Number(applied.range)) / 3600) * 3600, end: now };
  }, [applied]);
  const data = trpc.dashboard.data.useQuery({
    start_timestamp: span.start,
    end_timestamp: span.end,
    username: applied.username,
  });
  const self = trpc.users.self.useQuery();
  const buckets = useMemo(() => data.data ?? [], [data.data]);

  const charts = useMemo(
    () => ({
      quota: chartRows(buckets, granularity, 'quota', span),
      count: chartRows(buckets, granularity, 'count', span),
      tokens: chartRows(buckets, granularity, 'token_used', span),
    }),
    [buckets, granularity, span],
  );
  const summary = summarize(buckets);
  const totals = useMemo(() => modelTotals(buckets), [buckets]);
  const minutes = Number(applied.range) / 60;
  const colorOf = (m: string) => {
    const i = charts.quota.series.indexOf(m);
    return `${COLORS[(i < 0 ? COLORS.length - 1 : i) % COLORS.length]}.6`;
  };
  const series = charts.quota.series.map((m) => ({ name: m, label: m === OTHER ? t`Other` : m, color: colorOf(m) }));
  const empty = !data.isLoading && buckets.length === 0;
  const rangeLabel: Record<string, string> = {
    '86400': t`Last 24 hours`,
    '604800': t`Last 7 days`,
    '2592000': t`Last 30 days`,
  };
  const loading = (v: ReactNode) => (data.isLoading ? <Skeleton h={26} w="60%" mt={4} /> : v);

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
            w={{ base: '100%', xs: 180 }}
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
              w={{ base: '100%', xs: 200 }}
            />
          )}
          <Button
            leftSection={<IconSearch size={16} />}
            loading={data.isFetching}
            onClick={() => setApplied({ range, username: username.trim(), at: Date.now() })}
          >
            <Trans>Query</Trans>
          </Button>
        </Group>
      </Card>
      {data.error && <Alert color="red">{errorMessage(data.error)}</Alert>}

      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="dashboard-figures">
        <Figure
          label={<Trans>Balance</Trans>}
          value={self.data ? renderQuota(self.data.quota) : <Skeleton h={26} w="60%" mt={4} />}
          hint={self.data && <Trans>Used so far: {renderQuota(self.data.used_quota)}</Trans>}
          testId="figure-balance"
        />
        <Figure
          label={<Trans>Consumed in range</Trans>}
          value={loading(renderQuota(summary.quota))}
          hint={rangeLabel[applied.range]}
          testId="figure-quota"
        />
        <Figure
          label={<Trans>Requests in range</Trans>}
          value={loading(formatCount(summary.count))}
          hint={<Trans>Avg. RPM {formatRate(summary.count / minutes)}</Trans>}
          testId="figure-requests"
        />
        <Figure
          label={<Trans>Tokens in range</Trans>}
          value={loading(formatCount(summary.tokens))}
          hint={<Trans>Avg. TPM {formatRate(summary.tokens / minutes)}</Trans>}
          testId="figure-tokens"
        />
      </SimpleGrid>

      {empty ? (
        <Card withBorder radius="md" padding="xl" data-testid="dashboard-empty">
          <Stack align="center" gap="xs" py="lg">
            <ThemeIcon variant="light" size={48} radius="xl" color="gray">
              <IconChartBar size={26} />
            </ThemeIcon>
            <Text fw={600}>
              <Trans>No usage in this range</Trans>
            </Text>
            <Text size="sm" c="dimmed" ta="center" maw={420}>
              <Trans>
                Requests relayed with your tokens are counted here by the hour. Try a longer range, or send a request
                from the playground.
              </Trans>
            </Text>
          </Stack>
        </Card>
      ) : (
        <>
          <ChartCard title={<Trans>Consumption by model</Trans>}>
            <UsageChart
              data={charts.quota}
              granularity={granularity}
              series={series}
              value={(v) => renderQuota(v)}
              h={280}
              testId="chart-quota"
            />
          </ChartCard>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
            <ChartCard title={<Trans>Requests by model</Trans>}>
              <UsageChart
                data={charts.count}
                granularity={granularity}
                series={series}
                value={formatCount}
                h={240}
                testId="chart-count"
              />
            </ChartCard>
            <ChartCard title={<Trans>Tokens by model</Trans>}>
              <UsageChart
                data={charts.tokens}
                granularity={granularity}
                series={series}
                value={formatCount}
                tick={compactTick}
                h={240}
                testId="chart-tokens"
              />
            </ChartCard>
          </SimpleGrid>
          <ChartCard title={<Trans>Usage per model</Trans>}>
            <ModelBreakdown totals={totals} colorOf={(m) => `var(--mantine-color-${colorOf(m).replace('.', '-')})`} />
          </ChartCard>
        </>
      )}
      {admin && <ErrorRates start={span.start} end={span.end} />}
      {admin && <CacheShares start={span.start} end={span.end} />}
    </Page>
  );
}
