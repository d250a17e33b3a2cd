import { Stack, Text } from '@mantine/core';
import { formatTimestamp } from '../../lib/format.ts';
import type { Redemption } from './types.ts';

/** Who redeemed the code (a gift code's latest redeemer) and when; a dash while nobody has. */
export function RedeemedBy({ row }: { row: Redemption }) {
  if (!row.used_user_id) return <Text c="dimmed">-</Text>;
  return (
    <Stack gap={0} data-testid="redeemed-by">
      <Text size="sm" truncate>
        {row.used_username || `#${row.used_user_id}`}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatTimestamp(row.redeemed_time)}
      </Text>
    </Stack>
  );
}
