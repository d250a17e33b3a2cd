import { useLingui } from '@lingui/react/macro';
import { Badge, Stack, Text } from '@mantine/core';
import type { TableColumn } from '../../components/DataTable.tsx';
import { RoleBadge } from '../../components/RoleBadge.tsx';
import { Money } from '../../components/Money.tsx';
import { renderNumber } from '../../lib/format.ts';
import { RowActions } from './RowActions.tsx';
import { UserStatusBadge } from './StatusBadge.tsx';
import type { UserRow } from './types.ts';

const num = { fontVariantNumeric: 'tabular-nums' } as const;

export function useUserColumns(onEdit: (user: UserRow) => void): TableColumn<UserRow>[] {
  const { t } = useLingui();
  return [
    { accessor: 'id', title: 'ID', width: 70 },
    {
      accessor: 'username',
      title: t`User`,
      phone: 'title',
      render: (u) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {u.username}
          </Text>
          {u.display_name && u.display_name !== u.username && (
            <Text size="xs" c="dimmed">
              {u.display_name}
            </Text>
          )}
        </Stack>
      ),
    },
    { accessor: 'role', title: t`Role`, phone: 'badge', render: (u) => <RoleBadge role={u.role} /> },
    { accessor: 'status', title: t`Status`, phone: 'badge', render: (u) => <UserStatusBadge user={u} /> },
    {
      accessor: 'group',
      title: t`Group`,
      render: (u) => (
        <Badge variant="outline" color="gray" tt="none">
          {u.group}
        </Badge>
      ),
    },
    {
      accessor: 'quota',
      title: t`Balance`,
      phone: 'field',
      textAlign: 'right',
      render: (u) => (
        <span style={num}>
          <Money quota={u.quota} balance />
        </span>
      ),
    },
    {
      accessor: 'used_quota',
      title: t`Used`,
      phone: 'field',
      textAlign: 'right',
      render: (u) => (
        <span style={num}>
          <Money quota={u.used_quota} />
        </span>
      ),
    },
    {
      accessor: 'request_count',
      title: t`Requests`,
      textAlign: 'right',
      render: (u) => <span style={num}>{renderNumber(u.request_count)}</span>,
    },
    {
      accessor: 'actions',
      title: '',
      phone: 'actions',
      textAlign: 'right',
      width: 110,
      render: (u) => <RowActions user={u} onEdit={() => onEdit(u)} />,
    },
  ];
}
