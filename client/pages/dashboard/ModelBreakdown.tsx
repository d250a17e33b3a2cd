import { useLingui } from '@lingui/react/macro';
import { Box, ColorSwatch, Group, Progress, Table, Text } from '@mantine/core';
import { formatCount, renderQuota } from '../../lib/format.ts';
import { formatShare, type ModelTotal } from './series.ts';

/** The range per model (new-api's model analysis): requests, tokens, cost and share of the cost. */
export function ModelBreakdown({ totals, colorOf }: { totals: ModelTotal[]; colorOf: (model: string) => string }) {
  const { t } = useLingui();
  const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
  return (
    <Table verticalSpacing={6} layout="fixed" data-testid="model-breakdown">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t`Model`}</Table.Th>
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
                    <Progress value={m.share * 100} size="sm" color={colorOf(m.model)} style={{ flex: 1 }} />
                    <Text size="xs" c="dimmed" w={40} ta="right" style={num}>
                      {formatShare(m.share)}
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
              {renderQuota(m.quota)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
