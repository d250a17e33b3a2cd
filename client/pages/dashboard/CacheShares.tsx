import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { renderNumber } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import { ModelAndChannelTables, type ShareColumns, type ShareRow } from './ShareTables.tsx';

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
    title: m.model_name,
    whole: m.prompt_tokens,
    part: m.cache_tokens,
  }));
  const channels: ShareRow[] = (q.data?.channels ?? []).map((c) => {
    const label = `#${c.channel_id} ${c.channel_name}`;
    return { key: String(c.channel_id), label, title: label, whole: c.prompt_tokens, part: c.cache_tokens };
  });
  const columns: ShareColumns = {
    headers: [t`Prompt`, t`Cache read`, t`Share`],
    widths: [84, 84, 72],
    formatNumber: renderNumber,
    formatShare: formatCacheShare,
    color: shareColor,
  };
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
        <ModelAndChannelTables models={models} channels={channels} testId="cache-shares" columns={columns} />
      )}
    </Card>
  );
}
