import { Trans } from '@lingui/react/macro';
import { Card, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { formatCount } from '../../lib/format.ts';
import type { ImportJob } from './types.ts';

/** A running dry run or import: the table being read, how far, and how many tables are done. */
export function ProgressCard({ job }: { job: ImportJob }) {
  const p = job.progress;
  const percent = p && p.total > 0 ? Math.min(100, (p.done / p.total) * 100) : 0;
  return (
    <Card withBorder padding="md" data-testid="import-progress">
      <Stack gap="xs">
        <Group gap="xs">
          <Loader size="xs" />
          <Text fw={600}>{job.dryRun ? <Trans>Dry run in progress…</Trans> : <Trans>Importing…</Trans>}</Text>
        </Group>
        {p ? (
          <>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" ff="monospace" truncate>
                {p.table}
              </Text>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatCount(p.done)} / {formatCount(p.total)}
              </Text>
            </Group>
            <Progress value={percent} animated aria-label={p.table} />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>Connecting to the source database…</Trans>
          </Text>
        )}
        <Text size="xs" c="dimmed">
          <Trans>Tables finished: {job.finished.length}</Trans>
        </Text>
      </Stack>
    </Card>
  );
}
