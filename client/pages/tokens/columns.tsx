import { useLingui } from '@lingui/react/macro';
import { Badge, Text } from '@mantine/core';
import type { TableColumn } from '../../components/DataTable.tsx';
import { Money } from '../../components/Money.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { KeyCell } from './KeyCell.tsx';
import { RowActions } from './RowActions.tsx';
import { TokenStatusBadge } from './StatusBadge.tsx';
import type { TokenRow } from './types.ts';

const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

export function useTokenColumns(
  onEdit: (token: TokenRow) => void,
  onChanged: (token: TokenRow) => void,
): TableColumn<TokenRow>[] {
  const { t } = useLingui();
  return [
    {
      accessor: 'name',
      title: t`Name`,
      phone: 'title',
      render: (r) => (
        <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
          {r.name || '-'}
        </Text>
      ),
    },
    { accessor: 'status', title: t`Status`, phone: 'badge', render: (r) => <TokenStatusBadge token={r} /> },
    {
      accessor: 'remain_quota',
      title: t`Remaining`,
      phone: 'field',
      textAlign: 'right',
      render: (r) =>
        r.unlimited_quota ? (
          <Badge tt="none" variant="light" color="violet">{t`Unlimited`}</Badge>
        ) : (
          <span style={num}>
            <Money quota={r.remain_quota} balance />
          </span>
        ),
    },
    {
      accessor: 'used_quota',
      title: t`Used`,
      phone: 'field',
      textAlign: 'right',
      render: (r) => (
        <span style={num} data-testid="token-used">
          <Money quota={r.used_quota} />
        </span>
      ),
    },
    {
      accessor: 'group',
      title: t`Group`,
      render: (r) =>
        r.group ? (
          <Badge variant="outline" color="gray" tt="none">
            {r.group}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t`User group`}
          </Text>
        ),
    },
    { accessor: 'key', title: t`Key`, phone: 'wide', render: (r) => <KeyCell tokenKey={r.key} /> },
    {
      accessor: 'created_time',
      title: t`Created`,
      render: (r) => <span style={num}>{formatTimestamp(r.created_time)}</span>,
    },
    {
      accessor: 'expired_time',
      title: t`Expires`,
      render: (r) => <span style={num}>{r.expired_time === -1 ? t`Never` : formatTimestamp(r.expired_time)}</span>,
    },
    {
      accessor: 'actions',
      title: '',
      phone: 'actions',
      textAlign: 'right',
      render: (r) => <RowActions token={r} onEdit={() => onEdit(r)} onChanged={onChanged} />,
    },
  ];
}
