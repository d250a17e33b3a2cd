import { Trans, useLingui } from '@lingui/react/macro';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { TaskLogTable } from '../../components/TaskLogTable.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { buildTaskColumns } from './task-columns.tsx';
import dayjs from 'dayjs';
import { defaultTaskFilters, type TaskFilterValues, toUnix } from '../../components/TaskLogFilters.tsx';
import { TaskResultModal } from './TaskResultModal.tsx';
import type { TaskRow } from './types.ts';

/** /app/logs/tasks: Suno music and lyrics tasks and video jobs (all users' for admins), spec §2.7. */
export default function TaskLogsPage() {
  const { i18n } = useLingui();
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
      <TaskLogTable
        admin={admin}
        filters={filters}
        onFilters={(f) => {
          setFilters(f);
          setPage(0);
          void list.refetch();
        }}
        rows={rows}
        columns={columns}
        fetching={list.isFetching}
        page={page}
        onPage={setPage}
        pinLastColumn
      />
      <TaskResultModal task={open} onClose={() => setOpen(null)} />
    </Page>
  );
}
