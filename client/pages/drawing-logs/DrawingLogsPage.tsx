import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Card, Image, Modal } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { PrevNextPager } from '../../components/PrevNextPager.tsx';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { buildDrawingColumns } from './drawing-columns.tsx';
import dayjs from 'dayjs';
import { defaultTaskFilters, TaskLogFilters, type TaskFilterValues, toMs } from '../../components/TaskLogFilters.tsx';

/** The API pages drawings 10 at a time without a total (api-contract §0.4 style D). */
const PAGE_SIZE = 10;

/** /app/logs/drawing: the caller's Midjourney tasks (all users' for admins), spec §2.6. */
export default function DrawingLogsPage() {
  const { t, i18n } = useLingui();
  const admin = userIsAdmin(useStoredUser());
  const status = useStatus();
  // The spec's drawing-log range: the past 2,592,000 s (30 days).
  const [filters, setFilters] = useState<TaskFilterValues>(() =>
    defaultTaskFilters(dayjs().subtract(2_592_000, 'second')),
  );
  const [page, setPage] = useState(0);
  const [preview, setPreview] = useState<string | null>(null);

  const list = trpc.tasks.drawings.useQuery(
    {
      p: page,
      mj_id: filters.task_id || undefined,
      channel_id: admin && filters.channel_id ? filters.channel_id : undefined,
      start_timestamp: toMs(filters.start),
      end_timestamp: toMs(filters.end),
    },
    { placeholderData: keepPreviousData },
  );
  const rows = list.data ?? [];
  const columns = useMemo(() => buildDrawingColumns({ i18n, admin, onPreview: setPreview }), [i18n, admin]);

  return (
    <Page title={<Trans>Drawing logs</Trans>}>
      {admin && !status.mj_notify_enabled && (
        <Alert variant="light" color="yellow" icon={<IconInfoCircle size={18} />} data-testid="mj-callback-notice">
          <Trans>
            Midjourney callbacks are off: clients that rely on a notifyHook will not be told when their drawings finish.
            Turn them on under Settings, Drawing.
          </Trans>
        </Alert>
      )}
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
        defaultColumnProps={{ noWrap: true }}
        fetching={list.isFetching}
        noRecordsText={t`No data`}
      />
      <PrevNextPager page={page} rows={rows.length} pageSize={PAGE_SIZE} onChange={setPage} testId="drawing-page" />
      <Modal opened={preview !== null} onClose={() => setPreview(null)} title={t`Image preview`} size="lg" centered>
        {preview && <Image src={preview} alt={t`Image preview`} radius="sm" />}
      </Modal>
    </Page>
  );
}
