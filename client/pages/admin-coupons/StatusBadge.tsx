import { useLingui } from '@lingui/react/macro';
import { RedemptionStatus } from '../../../shared/constants.ts';
import { giftExhausted, type Redemption } from './types.ts';
import { StatusDot } from '../../components/StatusDot.tsx';

/** 1 unused (green), 2 disabled (red), 3 used (grey); an exhausted gift code shows as used up. */
export function StatusBadge({ row }: { row: Redemption }) {
  // A context keeps these apart from other pages' "Used" (quota used) and "Disabled".
  const { t } = useLingui();
  if (row.status === RedemptionStatus.Disabled)
    return <StatusDot color="red">{t({ message: 'Disabled', context: 'redemption status' })}</StatusDot>;
  if (row.status === RedemptionStatus.Used || giftExhausted(row))
    return <StatusDot color="gray">{t({ message: 'Used', context: 'redemption status' })}</StatusDot>;
  if (row.status === RedemptionStatus.Unused)
    return <StatusDot color="green">{t({ message: 'Unused', context: 'redemption status' })}</StatusDot>;
  return <StatusDot color="gray">{t({ message: 'Unknown', context: 'redemption status' })}</StatusDot>;
}
