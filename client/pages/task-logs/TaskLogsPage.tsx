import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
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
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} />}
          disabled={page === 0}
          onClick={() => setPage((p) => p - 1)}
        >
          <Trans>Previous</Trans>
        </Button>
        <Text size="sm" c="dimmed">
          <Trans>Page {page + 1}</Trans>
        </Text>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} />}
          // Without a total, a full page is the only hint that another one may follow.
          disabled={rows.length < PAGE_SIZE}
          onClick={() => setPage((p) => p + 1)}
        >
          <Trans>Next</Trans>
        </Button>
      </Group>
      <TaskResultModal task={open} onClose={() => setOpen(null)} />
    </Page>
  );
}
