import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { MESSAGE_PAGE_SIZE_KEY } from '../../../shared/schemas/messages.ts';
import type { StoredNotice } from '../../../shared/stored-message.ts';
import { PagedTable } from '../../components/DataTable.tsx';
import { Page } from '../../components/Page.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { noticeInLanguage } from '../../lib/server-messages.ts';
import { trpc } from '../../trpc.ts';
import { CreateMessageDrawer } from './CreateMessageDrawer.tsx';
import { EditMessageDrawer } from './EditMessageDrawer.tsx';
import { FormatBadge } from './FormatBadge.tsx';
import { type MessageFilters, SearchForm } from './SearchForm.tsx';

interface Row {
  id: number;
  title: string;
  content: string;
  /** A notice the server wrote: shown in the console's language. */
  notice: StoredNotice | null;
  format: string;
  created_at: number;
  stats: { total_recipients: number; read_count: number };
}

/** /admin/messages: search, list, compose, edit and delete messages to users (admins only). */
export default function AdminMessagesPage() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [filters, setFilters] = useState<MessageFilters>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize(MESSAGE_PAGE_SIZE_KEY);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);

  const list = trpc.messages.list.useQuery({ page, pageSize, ...filters }, { placeholderData: (prev) => prev });
  const remove = trpc.messages.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Message deleted successfully`);
      void utils.messages.list.invalidate();
    },
    onError: showError,
  });

  const confirmDelete = (row: Row) =>
    modals.openConfirmModal({
      title: t`Delete this message?`,
      children: (
        <Text size="sm">
          <Trans>This removes the message and all users' receipt records. It cannot be undone.</Trans>
        </Text>
      ),
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: row.id }),
    });

  return (
    <Page title={<Trans>Message management</Trans>}>
      <SearchForm
        searching={list.isFetching}
        onCreate={() => setCreating(true)}
        onSearch={(f) => {
          // Same filters on page 1 give the same query key, so ask again explicitly.
          if (page === 1 && JSON.stringify(f) === JSON.stringify(filters)) void list.refetch();
          setFilters(f);
          setPage(1);
        }}
      />
      <PagedTable<Row>
        records={list.data?.items ?? []}
        fetching={list.isFetching}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        columns={[
          { accessor: 'id', title: 'ID', width: 70 },
          {
            accessor: 'title',
            title: t`Title`,
            phone: 'title',
            // A fixed cap: long titles would otherwise widen the table past the screen.
            render: (r) => {
              const { title } = noticeInLanguage(r);
              return (
                <Text size="sm" truncate="end" maw={{ base: 160, sm: 220, md: 260, lg: 320, xl: 480 }} title={title}>
                  {title}
                </Text>
              );
            },
          },
          {
            accessor: 'format',
            title: t`Format`,
            width: 110,
            phone: 'badge',
            render: (r) => <FormatBadge format={r.format} />,
          },
          {
            accessor: 'stats.total_recipients',
            title: t`Recipients`,
            phone: 'field',
            width: 100,
            render: (r) => r.stats.total_recipients,
          },
          {
            accessor: 'created_at',
            title: t`Created`,
            width: 170,
            phone: 'field',
            render: (r) => formatTimestamp(r.created_at),
          },
          {
            accessor: 'actions',
            title: t`Actions`,
            phone: 'actions',
            width: 150,
            render: (r) => (
              <Group gap={6} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => setEditing(r.id)}
                  data-testid={`edit-message-${r.id}`}
                >
                  <Trans>Edit</Trans>
                </Button>
                <Button size="compact-sm" variant="light" color="red" onClick={() => confirmDelete(r)}>
                  <Trans>Delete</Trans>
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <CreateMessageDrawer opened={creating} onClose={() => setCreating(false)} />
      <EditMessageDrawer messageId={editing} onClose={() => setEditing(null)} />
    </Page>
  );
}
