import { useLingui } from '@lingui/react/macro';
import { Box, ColorSwatch, Group, Progress, SegmentedControl, Table, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Money } from '../../components/Money.tsx';
import { formatCount } from '../../lib/format.ts';
import { formatShare, type ModelTotal, type ShareBasis } from './series.ts';

/**
 * Which share the breakdown shows: of the cost (the default) or of the requests, and the control
 * that switches it (none when nothing cost anything: then shares are of requests).
 */
export function useShareBasis(totals: ModelTotal[]): { basis: ShareBasis; control: ReactNode } {
  const { t } = useLingui();
  const [picked, setBasis] = useState<ShareBasis>('cost');
  const free = totals.every((m) => m.quota === 0);
  const basis = free ? 'requests' : picked;
  const control = free ? null : (
    <SegmentedControl
      size="xs"
      value={basis}
      onChange={(v) => setBasis(v as ShareBasis)}
      aria-label={t`Share of`}
      data-testid="share-basis"
      data={[
        { value: 'cost', label: t`Cost share` },
        { value: 'requests', label: t`Request share` },
      ]}
    />
  );
  return { basis, control };
}

/**
 * The range per model (new-api's model analysis): requests, tokens, cost, and each model's share
 * of the cost or of the requests; the header says which (a cost share of 14% next to 5 of 7
 * requests reads as a mistake otherwise).
 */
export function ModelBreakdown(p: { totals: ModelTotal[]; basis: ShareBasis; colorOf: (model: string) => string }) {
  const { totals, basis, colorOf } = p;
  const { t } = useLingui();
  const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
  return (
    <Table verticalSpacing={6} layout="fixed" data-testid="model-breakdown">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <span>{t`Model`}</span>
              <Text span size="xs" c="dimmed" fw={600} ta="right" data-testid="share-header">
                {basis === 'cost' ? t`Share of cost` : t`Share of requests`}
              </Text>
            </Group>
          </Table.Th>
          <Table.Th ta="right" w={{ base: 84, sm: 96 }}>
            {t`Requests`}
          </Table.Th>
          <Table.Th ta="right" w={120} visibleFrom="sm">
            {t`Tokens`}
          </Table.Th>
          <Table.Th ta="right" w={{ base: 100, sm: 124 }}>
            {t`Cost`}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {totals.map((m) => (
          <Table.Tr key={m.model}>
            <Table.Td>
              <Group gap={8} wrap="nowrap">
                <ColorSwatch color={colorOf(m.model)} size={10} withShadow={false} style={{ flexShrink: 0 }} />
                <Box miw={0} style={{ flex: 1 }}>
                  <Text size="sm" truncate="end" title={m.model}>
                    {m.model}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    <Progress value={m.share[basis] * 100} size="sm" color={colorOf(m.model)} style={{ flex: 1 }} />
                    <Text size="xs" c="dimmed" w={40} ta="right" style={num} data-testid="model-share">
                      {formatShare(m.share[basis])}
                    </Text>
                  </Group>
                </Box>
              </Group>
            </Table.Td>
            <Table.Td ta="right" style={num}>
              {formatCount(m.count)}
            </Table.Td>
            <Table.Td ta="right" style={num} visibleFrom="sm">
              {formatCount(m.tokens)}
            </Table.Td>
            <Table.Td ta="right" style={num} fw={600}>
              {/* At whole cents like the figures above it, the exact amount on hover (issue 45). */}
              <Money quota={m.quota} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
