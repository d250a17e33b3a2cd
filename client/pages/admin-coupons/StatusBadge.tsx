import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import { RedemptionStatus } from '../../../shared/constants.ts';
import { giftExhausted, type Redemption } from './types.ts';

/** 1 unused (green), 2 disabled (red), 3 used (grey); an exhausted gift code shows as used up. */
export function StatusBadge({ row }: { row: Redemption }) {
  // A context keeps these apart from other pages' "Used" (quota used) and "Disabled".
  const { t } = useLingui();
  if (row.status === RedemptionStatus.Disabled)
    return (
      <Badge color="red" variant="light" tt="none">
        {t({ message: 'Disabled', context: 'redemption status' })}
      </Badge>
    );
  if (row.status === RedemptionStatus.Used || giftExhausted(row))
    return (
      <Badge color="gray" variant="light" tt="none">
        {t({ message: 'Used', context: 'redemption status' })}
      </Badge>
    );
  if (row.status === RedemptionStatus.Unused)
    return (
      <Badge color="green" variant="light" tt="none">
        {t({ message: 'Unused', context: 'redemption status' })}
      </Badge>
    );
  return (
    <Badge color="gray" variant="outline" tt="none">
      {t({ message: 'Unknown', context: 'redemption status' })}
    </Badge>
  );
}
