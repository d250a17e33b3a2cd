import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Card, SimpleGrid, Skeleton, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { renderNumber } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';

/** How many models or channels each table lists (the most prompt tokens first). */
const TOP = 10;

interface ShareRow {
  key: string;
  label: string;
  prompt: number;
  cached: number;
}

/** Cache-read tokens over prompt tokens as a whole percentage ("0%" without prompt tokens). */
export function formatCacheShare(cached: number, prompt: number): string {
  if (prompt <= 0 || cached <= 0) return '0%';
  const share = (cached / prompt) * 100;
  return share < 1 ? '<1%' : `${Math.round(share)}%`;
}

const shareColor = (cached: number, prompt: number) => {
  const share = prompt > 0 ? cached / prompt : 0;
  return share >= 0.5 ? 'teal' : share >= 0.2 ? 'yellow' : 'gray';
};

function ShareTable({ first, rows, testId }: { first: ReactNode; rows: ShareRow[]; testId: string }) {
  const { t } = useLingui();
  const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
  const nowrap = { whiteSpace: 'nowrap' } as const;
  return (
    <Table verticalSpacing={6} layout="fixed" data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{first}</Table.Th>
          <Table.Th ta="right" w={84} style={nowrap}>
            {t`Prompt`}
          </Table.Th>
          <Table.Th ta="right" w={84} style={nowrap}>
            {t`Cache read`}
          </Table.Th>
          <Table.Th ta="right" w={72} style={nowrap}>
            {t`Share`}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.slice(0, TOP).map((r) => (
          <Table.Tr key={r.key}>
            <Table.Td>
              <Text size="sm" truncate="end" title={r.label}>
                {r.label}
              </Text>
            </Table.Td>
            <Table.Td ta="right" style={num}>
              {renderNumber(r.prompt)}
            </Table.Td>
            <Table.Td ta="right" style={num}>
              {renderNumber(r.cached)}
            </Table.Td>
            <Table.Td ta="right">
              <Badge variant="light" tt="none" color={shareColor(r.cached, r.prompt)} style={num}>
                {formatCacheShare(r.cached, r.prompt)}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Admins: how much of the prompt tokens upstreams read from their prompt caches, per model and per
 * channel, in the dashboard's range (issue 29): where session affinity keeps caches warm, and where not.
 */
export function CacheShares({ start, end }: { start: number; end: number }) {
  const { t } = useLingui();
  const q = trpc.dashboard.promptCache.useQuery({ start_timestamp: start, end_timestamp: end });
  const models: ShareRow[] = (q.data?.models ?? []).map((m) => ({
    key: m.model_name,
    label: m.model_name || '-',
    prompt: m.prompt_tokens,
    cached: m.cache_tokens,
  }));
  const channels: ShareRow[] = (q.data?.channels ?? []).map((c) => ({
    key: String(c.channel_id),
    label: `#${c.channel_id} ${c.channel_name}`,
    prompt: c.prompt_tokens,
    cached: c.cache_tokens,
  }));
  return (
    <Card withBorder radius="md" padding="md" data-testid="cache-shares">
      <Title order={4} fz="md">
        <Trans>Prompt cache by model and by channel</Trans>
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        <Trans>
          All users. The share of prompt tokens the upstream read from its prompt cache (billed at the cache ratio):
          high where the turns of a session stay on one channel and key.
        </Trans>
      </Text>
      {q.isLoading ? (
        <Skeleton h={120} />
      ) : models.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="cache-shares-empty">
          <Trans>No requests in this range</Trans>
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          {/* Each table in a box of its own: a grid cell would stretch a shorter table's rows. */}
          <Box>
            <ShareTable first={t`Model`} rows={models} testId="cache-shares-models" />
          </Box>
          <Box>
            <ShareTable first={t`Channel`} rows={channels} testId="cache-shares-channels" />
          </Box>
        </SimpleGrid>
      )}
    </Card>
  );
}
