import { Trans } from '@lingui/react/macro';
import { Alert, Badge, Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { Fragment } from 'react';
import { formatCount, renderQuota } from '../../lib/format.ts';
import type { ImportJob, ImportReport } from './types.ts';

/** A finished dry run or import: per table read / imported / skipped, why rows were skipped, notes, the balance. */
export function ReportCard({ job, report }: { job: ImportJob; report: ImportReport }) {
  const tables = Object.entries(report.tables);
  const skipped = tables.flatMap(([table, r]) => r.skipped.map((s) => ({ table, ...s })));
  const b = report.balance;
  return (
    <Card withBorder padding="md" data-testid="import-report">
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={4}>
            {job.dryRun ? <Trans>Dry run report: nothing was written</Trans> : <Trans>Import report</Trans>}
          </Title>
          <Group gap={6}>
            <Badge variant="light">{report.shape}</Badge>
            <Badge variant="light" color="gray">
              {report.dialect}
            </Badge>
          </Group>
        </Group>
        {report.failure && (
          <Alert
            color="red"
            icon={<IconAlertTriangle size={18} />}
            title={<Trans>The import stopped at a table</Trans>}
          >
            <Text size="sm">
              <Text span ff="monospace" size="sm">
                {report.failure.table}
              </Text>
              : {report.failure.message}
            </Text>
            <Text size="sm" mt={4}>
              <Trans>Tables already finished stay imported; fix the cause and run it again.</Trans>
            </Text>
          </Alert>
        )}
        <Alert
          data-testid="import-balance"
          color={b.ok ? 'green' : 'red'}
          icon={b.ok ? <IconCircleCheck size={18} /> : <IconAlertTriangle size={18} />}
          title={b.ok ? <Trans>Balance check passed</Trans> : <Trans>Balance check failed</Trans>}
        >
          <Stack gap={2}>
            <Text size="sm">
              <Trans>
                Users' quota: {renderQuota(b.before.users)} in new-api, {renderQuota(b.after.users)} here
              </Trans>
            </Text>
            <Text size="sm">
              <Trans>
                Subscriptions' remaining quota: {renderQuota(b.before.subscriptions)} in new-api,{' '}
                {renderQuota(b.after.subscriptions)} here
              </Trans>
            </Text>
          </Stack>
        </Alert>
        <Table striped withTableBorder verticalSpacing={6} horizontalSpacing="xs" fz={{ base: 'xs', sm: 'sm' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Table</Trans>
              </Table.Th>
              <Table.Th ta="right">
                <Trans>Rows read</Trans>
              </Table.Th>
              <Table.Th ta="right">{job.dryRun ? <Trans>Would import</Trans> : <Trans>Imported</Trans>}</Table.Th>
              <Table.Th ta="right">
                <Trans>Skipped</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tables.map(([name, r]) => (
              <Table.Tr key={name}>
                {/* A phone breaks long table names after an underscore rather than scroll sideways. */}
                <Table.Td ff="monospace">
                  {name.split('_').map((part, i) => (
                    <Fragment key={i}>
                      {i > 0 && (
                        <>
                          _<wbr />
                        </>
                      )}
                      {part}
                    </Fragment>
                  ))}
                </Table.Td>
                <Table.Td ta="right">{formatCount(r.read)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.imported)}</Table.Td>
                <Table.Td ta="right" c={r.skipped.length > 0 ? 'orange' : undefined}>
                  {formatCount(r.skipped.length)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {!job.dryRun && (
          <Text size="sm" c="dimmed">
            <Trans>Channel abilities derived: {formatCount(report.abilities)}</Trans>
          </Text>
        )}
        {skipped.length > 0 && (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              <Trans>Skipped rows</Trans>
            </Text>
            <List size="sm" spacing={2} style={{ overflowWrap: 'anywhere' }}>
              {skipped.slice(0, 200).map((s, i) => (
                <List.Item key={i}>
                  <Text span ff="monospace" size="sm">
                    {s.table} #{String(s.id)}
                  </Text>
                  : {s.reason}
                </List.Item>
              ))}
            </List>
            {skipped.length > 200 && (
              <Text size="xs" c="dimmed">
                <Trans>…and {formatCount(skipped.length - 200)} more; the command's report lists them all.</Trans>
              </Text>
            )}
          </Stack>
        )}
        {report.notes.length > 0 && (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              <Trans>Notes</Trans>
            </Text>
            <List size="sm" spacing={2} style={{ overflowWrap: 'anywhere' }}>
              {report.notes.map((n, i) => (
                <List.Item key={i}>{n}</List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
