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
import { Money } from '../../components/Money.tsx';
import { formatCount, renderCents, renderQuota } from '../../lib/format.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { CacheShares } from './CacheShares.tsx';
import { ErrorRates } from './ErrorRates.tsx';
import { ModelBreakdown, useShareBasis } from './ModelBreakdown.tsx';
import {
  autoGranularity,
  chartRows,
  compactTick,
  fitRange,
  type Granularity,
  modelTotals,
  OTHER,
  rangeStart,
  summarize,
} from './series.ts';
import { UsageChart } from './UsageChart.tsx';

const COLORS = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink', 'gray'];
const RANGES = [
  { value: '86400', days: 1 },
  { value: '604800', days: 7 },
  { value: '2592000', days: 30 },
];

function ChartCard({ title, action, children }: { title: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" gap="xs" mb="sm">
        <Title order={4} fz="md">
          {title}
        </Title>
        {action}
      </Group>
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

/** The page's ranges, shortest first (seconds). */
const RANGE_SECONDS = RANGES.map((r) => Number(r.value));
const LONGEST = RANGES[RANGES.length - 1].value;
/** With no data to fit, the page opens on a week. */
const NO_DATA_RANGE = 604_800;

/**
 * /app/dashboard: the account, the range's usage and rates, and usage per model over time (spec §2.15 data export).
 * It opens on the shortest range holding the data, at the granularity that range reads best in
 * (autoGranularity); a range or granularity the user picks stays theirs.
 */
export default function DashboardPage() {
  const { t } = useLingui();
  const status = useStatus();
  const admin = userIsAdmin(useStoredUser());
  const siteDefault = (['hour', 'day', 'week'] as const).find((g) => g === status.data_export_default_time) ?? 'hour';
  const [pickedGranularity, setGranularity] = useState<Granularity | null>(null);
  // null: fit the range to the data (the longest range is fetched, the shortest holding it shown).
  const [range, setRange] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [applied, setApplied] = useState({ range, username: '', at: Date.now() });

  // A range ends now and starts at its first whole hour (rangeStart); a user's own view may span 30 days at most.
  const now = Math.floor(applied.at / 1000);
  const fetched = useMemo(
    () => ({ start: rangeStart(now, Number(applied.range ?? LONGEST)), end: now }),
    [now, applied.range],
  );
  const data = trpc.dashboard.data.useQuery({
    start_timestamp: fetched.start,
    end_timestamp: fetched.end,
    username: applied.username,
  });
  const rates = trpc.dashboard.rates.useQuery({ username: applied.username });
  const self = trpc.users.self.useQuery();
  const shownRange = applied.range ?? String(fitRange(data.data ?? [], RANGE_SECONDS, now, NO_DATA_RANGE));
  const granularity = pickedGranularity ?? autoGranularity(Number(shownRange), siteDefault);
  const span = useMemo(() => ({ start: rangeStart(now, Number(shownRange)), end: now }), [now, shownRange]);
  const buckets = useMemo(() => (data.data ?? []).filter((b) => b.created_at >= span.start), [data.data, span]);

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
  const share = useShareBasis(totals);
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
  const rate = (n: number | undefined) => (n === undefined ? '…' : formatCount(n));

  return (
    <Page title={<Trans>Dashboard</Trans>}>
      <Card withBorder radius="md" padding="md">
        <Group gap="sm" align="flex-end">
          <Select
            label={t`Range`}
            value={range ?? (data.isLoading ? null : shownRange)}
            allowDeselect={false}
            onChange={(v) => setRange(v)}
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
              data-testid="granularity"
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
            onClick={() => {
              setApplied({ range, username: username.trim(), at: Date.now() });
              void rates.refetch();
            }}
          >
            <Trans>Query</Trans>
          </Button>
        </Group>
      </Card>
      {data.error && <Alert color="red">{errorMessage(data.error)}</Alert>}

      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="dashboard-figures">
        <Figure
          label={<Trans>Balance</Trans>}
          value={self.data ? <Money quota={self.data.quota} balance /> : <Skeleton h={26} w="60%" mt={4} />}
          hint={
            self.data && (
              <span title={renderQuota(self.data.used_quota)}>
                <Trans>Used so far: {renderCents(self.data.used_quota, 'round')}</Trans>
              </span>
            )
          }
          testId="figure-balance"
        />
        <Figure
          label={<Trans>Consumed in range</Trans>}
          value={loading(<Money quota={summary.quota} />)}
          hint={rangeLabel[shownRange]}
          testId="figure-quota"
        />
        <Figure
          label={<Trans>Requests in range</Trans>}
          value={loading(formatCount(summary.count))}
          hint={
            <span data-testid="figure-rpm">
              <Trans>RPM (last 60 s): {rate(rates.data?.rpm)}</Trans>
            </span>
          }
          testId="figure-requests"
        />
        <Figure
          label={<Trans>Tokens in range</Trans>}
          value={loading(formatCount(summary.tokens))}
          hint={
            <span data-testid="figure-tpm">
              <Trans>TPM (last 60 s): {rate(rates.data?.tpm)}</Trans>
            </span>
          }
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
          <ChartCard title={<Trans>Usage per model</Trans>} action={share.control}>
            <ModelBreakdown
              totals={totals}
              basis={share.basis}
              colorOf={(m) => `var(--mantine-color-${colorOf(m).replace('.', '-')})`}
            />
          </ChartCard>
        </>
      )}
      {admin && !data.isLoading && <ErrorRates start={span.start} end={span.end} />}
      {admin && !data.isLoading && <CacheShares start={span.start} end={span.end} />}
    </Page>
  );
}
