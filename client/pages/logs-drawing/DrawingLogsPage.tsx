import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Image, Modal } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { TaskLogTable } from '../../components/TaskLogTable.tsx';
import { useStatus } from '../../lib/status-context.tsx';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { buildDrawingColumns } from './drawing-columns.tsx';
import dayjs from 'dayjs';
import { defaultTaskFilters, type TaskFilterValues, toMs } from '../../components/TaskLogFilters.tsx';

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
        pagerTestId="drawing-page"
      />
      <Modal opened={preview !== null} onClose={() => setPreview(null)} title={t`Image preview`} size="lg" centered>
        {preview && <Image src={preview} alt={t`Image preview`} radius="sm" />}
      </Modal>
    </Page>
  );
}
