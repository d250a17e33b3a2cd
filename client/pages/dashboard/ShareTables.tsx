import { useLingui } from '@lingui/react/macro';
import { Badge, Box, SimpleGrid, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** How many models or channels each table lists (the rows come sorted by the server). */
const TOP = 10;

/** One model or channel: a part (errors, cache-read tokens) of a whole (requests, prompt tokens). */
export interface ShareRow {
  key: string;
  label: ReactNode;
  title: string;
  whole: number;
  part: number;
}

/** How a card's tables read: the three number columns' headers and widths, the formats and the badge colour. */
export interface ShareColumns {
  headers: [whole: string, part: string, share: string];
  widths: [number, number, number];
  formatNumber: (n: number) => string;
  formatShare: (part: number, whole: number) => string;
  color: (part: number, whole: number) => string;
  /** Bold the part when it is not zero (errors stand out, cache reads do not need to). */
  boldPart?: boolean;
}

const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
const nowrap = { whiteSpace: 'nowrap' } as const;

function ShareTable({
  first,
  rows,
  testId,
  c,
}: {
  first: ReactNode;
  rows: ShareRow[];
  testId: string;
  c: ShareColumns;
}) {
  return (
    <Table verticalSpacing={6} layout="fixed" data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{first}</Table.Th>
          {c.headers.map((h, i) => (
            <Table.Th key={h} ta="right" w={c.widths[i]} style={nowrap}>
              {h}
            </Table.Th>
          ))}
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
              {c.formatNumber(r.whole)}
            </Table.Td>
            <Table.Td ta="right" style={num} fw={c.boldPart && r.part > 0 ? 600 : undefined}>
              {c.formatNumber(r.part)}
            </Table.Td>
            <Table.Td ta="right">
              <Badge variant="light" tt="none" color={c.color(r.part, r.whole)} style={num}>
                {c.formatShare(r.part, r.whole)}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The dashboard's admin tables: per model and per channel, side by side on wide screens. */
export function ModelAndChannelTables(p: {
  models: ShareRow[];
  channels: ShareRow[];
  /** `<testId>-models` and `<testId>-channels`. */
  testId: string;
  columns: ShareColumns;
}) {
  const { t } = useLingui();
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      {/* Each table in a box of its own: a grid cell would stretch a shorter table's rows. */}
      <Box>
        <ShareTable first={t`Model`} rows={p.models} testId={`${p.testId}-models`} c={p.columns} />
      </Box>
      <Box>
        <ShareTable first={t`Channel`} rows={p.channels} testId={`${p.testId}-channels`} c={p.columns} />
      </Box>
    </SimpleGrid>
  );
}
