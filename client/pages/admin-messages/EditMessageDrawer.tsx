import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Drawer, SimpleGrid, Stack, Text } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import { ScrollCue } from '../../components/ScrollCue.tsx';
import { useEffect, useRef, useState } from 'react';
import { RECIPIENTS_PAGE_SIZE } from '../../../shared/schemas/messages.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { PageLoader } from '../../layout/PageLoader.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import { type MessageFormValues, useMessageForm } from './form.ts';
import { MessageFields } from './MessageFields.tsx';

function Fact({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** Read-only recipients with read status, 10 per page (paged here: the list comes whole). */
function RecipientsTable({ messageId }: { messageId: number }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const recipients = trpc.messages.recipients.useQuery({ id: messageId });
  const all = recipients.data ?? [];
  const records = all.slice((page - 1) * RECIPIENTS_PAGE_SIZE, page * RECIPIENTS_PAGE_SIZE);
  return (
    <ScrollCue>
      <DataTable
        withTableBorder
        borderRadius="md"
        verticalSpacing={6}
        fz="sm"
        minHeight={records.length ? undefined : 150}
        fetching={recipients.isFetching}
        records={records}
        idAccessor="user_id"
        columns={[
          { accessor: 'user_id', title: t`User ID`, width: 80 },
          { accessor: 'username', title: t`Username` },
          { accessor: 'display_name', title: t`Display name` },
          {
            accessor: 'read_at',
            title: t`Read status`,
            render: (r) =>
              r.read_at ? (
                <Badge color="green" variant="light">{t`Read`}</Badge>
              ) : (
                <Badge color="gray" variant="light">{t`Unread`}</Badge>
              ),
          },
          { accessor: 'read_time', title: t`Read time`, render: (r) => (r.read_at ? formatTimestamp(r.read_at) : '-') },
        ]}
        totalRecords={all.length}
        recordsPerPage={RECIPIENTS_PAGE_SIZE}
        page={page}
        onPageChange={setPage}
        paginationText={({ from, to, totalRecords }) => t`${from}-${to} of ${totalRecords}`}
        noRecordsText={t`No recipients`}
      />
    </ScrollCue>
  );
}

interface Props {
  messageId: number | null;
  onClose: () => void;
}

/** Edit title, format and content; recipients are shown but never change. */
export function EditMessageDrawer({ messageId, onClose }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const form = useMessageForm();
  // Keep showing the last message while the drawer slides closed.
  const lastId = useRef(0);
  if (messageId !== null) lastId.current = messageId;
  const id = lastId.current;
  const message = trpc.messages.get.useQuery({ id }, { enabled: id > 0 });
  const data = message.data;

  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!data) return;
    const values: MessageFormValues = {
      title: data.title,
      content: data.content,
      format: data.format === 'html' ? 'html' : 'markdown',
    };
    setValues(values);
    resetDirty(values);
  }, [data, setValues, resetDirty]);

  const update = trpc.messages.update.useMutation({
    onSuccess: (updated) => {
      showSuccess(t`Message updated successfully`);
      utils.messages.get.setData({ id: updated.id }, updated);
      void utils.messages.list.invalidate();
      onClose();
    },
    onError: showError,
  });

  return (
    <Drawer
      opened={messageId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Trans>Edit message</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      {!data ? (
        <PageLoader h={240} />
      ) : (
        <form onSubmit={form.onSubmit((v) => update.mutate({ id, ...v }))} data-testid="edit-message-form">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Fact label={t`Message ID`} value={data.id} />
              <Fact label={t`Created`} value={formatTimestamp(data.created_at)} />
              <Fact label={t`Recipients`} value={data.stats.total_recipients} testId="edit-recipient-count" />
              <Fact label={t`Read`} value={data.stats.read_count} testId="edit-read-count" />
            </SimpleGrid>
            <MessageFields form={form} />
            <Text fw={500} size="sm">
              <Trans>Recipients (cannot be changed)</Trans>
            </Text>
            <RecipientsTable messageId={data.id} />
            <FormFooter sticky onCancel={onClose} label={<Trans>Update</Trans>} loading={update.isPending} />
          </Stack>
        </form>
      )}
    </Drawer>
  );
}
