import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { PagedTable } from '../../components/DataTable.tsx';
import { Page } from '../../components/Page.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { usePanelRequest } from '../../components/usePanelRequest.ts';
import { trpc } from '../../trpc.ts';
import { AddUserDrawer } from './AddUserDrawer.tsx';
import { useUserColumns } from './columns.tsx';
import { EditUserDrawer } from './EditUserDrawer.tsx';
import { isDeactivated, type UserRow } from './types.ts';

/** User management (accounts spec §2): search, paging, add and edit drawers, row actions. */
export default function UsersPage() {
  const { t } = useLingui();
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [keywordInput, setKeywordInput] = useState('');
  const [filter, setFilter] = useState<{ keyword: string; group: string | null }>({ keyword: '', group: null });
  const [group, setGroup] = useState<string | null>(null);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const utils = trpc.useUtils();
  // /user/edit/:id lands here with ?edit=<id>.
  const requested = usePanelRequest({ load: (id) => utils.users.get.fetch({ id }), onEdit: setEditing });
  const [adding, setAdding] = useState(requested.add);
  const groups = trpc.groups.list.useQuery();
  const list = trpc.users.list.useQuery(
    { page, pageSize, keyword: filter.keyword || undefined, group: filter.group || undefined },
    { placeholderData: (prev) => prev },
  );
  const columns = useUserColumns(setEditing);

  const search = (e?: React.FormEvent) => {
    e?.preventDefault();
    setPage(1);
    setFilter({ keyword: keywordInput.trim(), group });
  };

  return (
    <Page
      title={<Trans>User management</Trans>}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          {t`Add user`}
        </Button>
      }
    >
      <form onSubmit={search}>
        <Group gap="xs" align="flex-end">
          <TextInput
            placeholder={t`Search by ID, username, display name or e-mail`}
            leftSection={<IconSearch size={16} />}
            value={keywordInput}
            onChange={(e) => setKeywordInput(e.currentTarget.value)}
            style={{ flex: '1 1 260px' }}
            maw={420}
          />
          <Select
            placeholder={t`All groups`}
            data={groups.data ?? []}
            value={group}
            onChange={setGroup}
            clearable
            w={180}
          />
          <Button type="submit" variant="light">
            {t`Search`}
          </Button>
        </Group>
      </form>
      <PagedTable<UserRow>
        records={list.data?.items ?? []}
        columns={columns}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        fetching={list.isFetching}
        tableMinWidth={900}
        pinLastColumn
        rowStyle={(u) => (isDeactivated(u) ? { opacity: 0.55 } : undefined)}
      />
      <AddUserDrawer opened={adding} onClose={() => setAdding(false)} />
      <EditUserDrawer user={editing} groups={groups.data ?? []} onClose={() => setEditing(null)} />
    </Page>
  );
}
