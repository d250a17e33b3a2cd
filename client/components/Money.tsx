import { formatCents, formatQuota, quotaDisplay } from '../lib/format.ts';

/**
 * A balance or a total used, at whole cents (formatCents: a balance rounded down, so it never shows more than
 * can be spent), with the exact amount as the title, read on hover: "$9.73" over "$9.736676".
 */
export function Money({ quota, balance = false, testId }: { quota: number; balance?: boolean; testId?: string }) {
  const display = quotaDisplay();
  return (
    <span title={formatQuota(quota, display)} data-testid={testId}>
      {formatCents(quota, display, balance ? 'floor' : 'round')}
    </span>
  );
}
