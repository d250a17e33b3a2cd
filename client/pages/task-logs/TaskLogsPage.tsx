import { Trans, useLingui } from '@lingui/react/macro';
import { Card } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { PrevNextPager } from '../../components/PrevNextPager.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { buildTaskColumns } from './task-columns.tsx';
import dayjs from 'dayjs';
import { defaultTaskFilters, TaskLogFilters, type TaskFilterValues, toUnix } from '../../components/TaskLogFilters.tsx';
import { TaskResultModal } from './TaskResultModal.tsx';
import type { TaskRow } from './types.ts';

/** The API pages tasks 10 at a time without a total (api-contract §0.4 style D). */
const PAGE_SIZE = 10;

/** /app/logs/tasks: Suno music and lyrics tasks (all users' for admins), spec §2.7. */
export default function TaskLogsPage() {
  const { t, i18n } = useLingui();
  const admin = userIsAdmin(useStoredUser());
  // The spec's music-log range starts at midnight today.
  const [filters, setFilters] = useState<TaskFilterValues>(() => defaultTaskFilters(dayjs().startOf('day')));
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<TaskRow | null>(null);

  const list = trpc.tasks.music.useQuery(
    {
      p: page,
      task_id: filters.task_id || undefined,
      channel_id: admin && filters.channel_id ? filters.channel_id : undefined,
      start_timestamp: toUnix(filters.start),
      end_timestamp: toUnix(filters.end),
    },
    { placeholderData: keepPreviousData },
  );
  const rows = list.data ?? [];
  const columns = useMemo(() => buildTaskColumns({ i18n, admin, onOpen: setOpen }), [i18n, admin]);

  return (
    <Page title={<Trans>Task logs</Trans>}>
      <Card withBorder padding="md" radius="md">
        <TaskLogFilters
          admin={admin}
          initial={filters}
          fetching={list.isFetching}
          onSubmit={(f) => {
            setFilters(f);
            setPage(0);
            void list.refetch();
          }}
        />
      </Card>
      <DataTable
        withTableBorder
        borderRadius="md"
        highlightOnHover
        verticalSpacing="sm"
        minHeight={rows.length ? undefined : 180}
        records={rows}
        columns={columns}
        idAccessor="id"
        // The result button stays in view while the wide table scrolls sideways.
        pinLastColumn
        defaultColumnProps={{ noWrap: true }}
        fetching={list.isFetching}
        noRecordsText={t`No data`}
      />
      <PrevNextPager page={page} rows={rows.length} pageSize={PAGE_SIZE} onChange={setPage} />
      <TaskResultModal task={open} onClose={() => setOpen(null)} />
    </Page>
  );
}
