import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { usePageSize } from '../../components/usePageSize.ts';
import { PagedTable } from '../../components/DataTable.tsx';
import { Page } from '../../components/Page.tsx';
import { formatTimestamp, renderQuota } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import { BulkActions } from './BulkActions.tsx';
import { DeleteByNameModal } from './DeleteByNameModal.tsx';
import { RedeemedBy } from './RedeemedBy.tsx';
import { RedemptionDrawer } from './RedemptionDrawer.tsx';
import { RowActions } from './RowActions.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { isInactive, type Redemption } from './types.ts';

/**
 * /admin/coupons: list, search, create, edit, disable and delete redemption codes (admins only);
 * who redeemed each code and when; bulk changes behind one menu.
 */
export default function CouponsPage() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const [selected, setSelected] = useState<Redemption[]>([]);
  const [drawer, setDrawer] = useState<{ editing?: Redemption } | null>(null);
  const [deletingByName, setDeletingByName] = useState(false);

  const list = trpc.redemptions.list.useQuery({ keyword, page, pageSize }, { placeholderData: (prev) => prev });
  const refresh = () => {
    setSelected([]);
    void utils.redemptions.list.invalidate();
  };

  const search = () => {
    setKeyword(draft.trim());
    setPage(1);
  };

  return (
    <Page title={<Trans>Redemption codes</Trans>}>
      <Group justify="space-between" gap="sm">
        <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 260px', maxWidth: 420 }}>
          <TextInput
            style={{ flex: 1 }}
            leftSection={<IconSearch size={16} />}
            placeholder={t`Search by ID or name`}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && search()}
          />
          <Button variant="light" onClick={search} loading={list.isFetching && keyword === draft.trim()}>
            <Trans>Search</Trans>
          </Button>
        </Group>
        <Group gap="xs">
          <Button onClick={() => setDrawer({})} data-testid="create-codes">
            <Trans>Create codes</Trans>
          </Button>
          <BulkActions selected={selected} onDone={refresh} onDeleteByName={() => setDeletingByName(true)} />
        </Group>
      </Group>
      <PagedTable<Redemption>
        records={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={(p) => {
          setPage(p);
          setSelected([]);
        }}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        fetching={list.isFetching}
        selectedRecords={selected}
        onSelectedRecordsChange={setSelected}
        rowStyle={(r) => (isInactive(r) ? { opacity: 0.55 } : undefined)}
        columns={[
          {
            accessor: 'id',
            title: 'ID',
            width: 70,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          },
          { accessor: 'name', title: t`Name`, ellipsis: true, phone: 'title' },
          { accessor: 'status', title: t`Status`, phone: 'badge', render: (r) => <StatusBadge row={r} /> },
          // A context keeps this "Quota" apart from pages where it means a user's remaining quota.
          {
            accessor: 'quota',
            title: t({ message: 'Quota', context: 'redemption' }),
            noWrap: true,
            phone: 'field',
            render: (r) => renderQuota(r.quota),
          },
          {
            accessor: 'used_count',
            title: t`Uses`,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
            render: (r) => (r.is_gift ? `${r.used_count} / ${r.max_uses === -1 ? '∞' : r.max_uses}` : r.used_count),
          },
          {
            accessor: 'used_username',
            title: t`Redeemed by`,
            phone: 'field',
            render: (r) => <RedeemedBy row={r} />,
          },
          {
            accessor: 'created_time',
            title: t`Created`,
            width: 170,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
            render: (r) => formatTimestamp(r.created_time),
          },
          {
            accessor: 'actions',
            title: t`Actions`,
            textAlign: 'right',
            width: 120,
            phone: 'actions',
            render: (r) => <RowActions row={r} onEdit={(row) => setDrawer({ editing: row })} />,
          },
        ]}
      />
      <RedemptionDrawer opened={drawer !== null} editing={drawer?.editing} onClose={() => setDrawer(null)} />
      <DeleteByNameModal opened={deletingByName} onClose={() => setDeletingByName(false)} />
    </Page>
  );
}
