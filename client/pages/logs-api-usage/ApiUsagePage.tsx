import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Box, Card, Group, Skeleton, Tooltip } from '@mantine/core';
import { useDisclosure, useElementSize } from '@mantine/hooks';
import { IconColumns3 } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { LogType } from '../../../shared/constants.ts';
import { Page } from '../../components/Page.tsx';
import { PagedTable } from '../../components/DataTable.tsx';
import { usePhone } from '../../components/PhoneCards.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { Money } from '../../components/Money.tsx';
import { formatCount } from '../../lib/format.ts';
import { useStoredUser, userIsAdmin } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { ColumnSettingsModal } from '../../components/ColumnSettingsModal.tsx';
import {
  availableColumns,
  defaultVisibility,
  fitColumns,
  type LogColumnKey,
  logColumns,
  useColumnVisibility,
} from './columns.ts';
import { buildLogColumns, logCells } from './log-columns.tsx';
import { LogCardFace } from './LogCards.tsx';
import { LogDetails } from './LogDetails.tsx';
import { defaultFilters, LogFilters, type LogFilterValues, toUnix } from './LogFilters.tsx';
import type { LogItem } from './types.ts';
import { UserInfoModal } from './UserInfoModal.tsx';

type Row = LogItem & { rowKey: string };

/** Columns the details show anyway (channel with its name, the channels tried): not repeated when they move there. */
const IN_DETAILS = new Set<LogColumnKey>(['channel', 'retry']);
/** What a phone card shows; its other chosen columns are in the opened card. */
const ON_CARD = new Set<LogColumnKey>(['time', 'username', 'token', 'model', 'tokens', 'quota', 'details']);

function toQuery(f: LogFilterValues, admin: boolean) {
  return {
    type: f.type,
    token_name: f.token_name,
    model_name: f.model_name,
    group: f.group,
    start_timestamp: toUnix(f.start),
    end_timestamp: toUnix(f.end),
    ...(admin ? { username: f.username, channel: f.channel } : {}),
  };
}

/** /app/logs/api-usage: stats, filters, the log table with expandable rows (spec §2.5). */
export default function ApiUsagePage() {
  const { t, i18n } = useLingui();
  const admin = userIsAdmin(useStoredUser());
  const [filters, setFilters] = useState<LogFilterValues>(defaultFilters);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const [visible, setVisible] = useColumnVisibility(admin);
  const [settingsOpen, settings] = useDisclosure(false);
  const [userInfoId, setUserInfoId] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  // Phones get cards; wider screens the table with the columns that fit its width.
  const phone = usePhone();
  const { ref: tableBox, width: tableWidth } = useElementSize();

  const query = toQuery(filters, admin);
  const list = trpc.logs.list.useQuery(
    { ...query, p: page, page_size: pageSize },
    { placeholderData: keepPreviousData },
  );
  const stat = trpc.logs.stat.useQuery(query);
  const self = trpc.users.self.useQuery();

  const rows: Row[] = useMemo(
    // Self-view ids repeat (id % 1024), so rows are keyed by position.
    () => (list.data?.items ?? []).map((l, i) => ({ ...l, rowKey: `${page}-${i}-${l.id}` })),
    [list.data, page],
  );
  const pageTokens = rows.reduce((n, l) => n + l.prompt_tokens + l.completion_tokens, 0);
  // Error rows have no tokens and no cost: filtered to them, the table gives that room to the reason.
  const errorsOnly = filters.type === LogType.Error;
  const shownColumns = useMemo(
    () => (errorsOnly ? { ...visible, tokens: false, quota: false } : visible),
    [visible, errorsOnly],
  );
  // Before the first measurement every chosen column is laid out; the table settles once measured.
  const fit = useMemo(() => fitColumns(shownColumns, tableWidth || Infinity), [shownColumns, tableWidth]);
  const cells = useMemo(() => logCells({ i18n, onUserClick: setUserInfoId }), [i18n]);
  const columns = useMemo(
    () => buildLogColumns({ i18n, onUserClick: setUserInfoId }, fit.shown, (l) => expanded.includes((l as Row).rowKey)),
    [i18n, fit.shown, expanded],
  );
  const details = (record: Row) => (
    <LogDetails
      log={record}
      admin={admin}
      extra={logColumns
        .filter((c) => (phone ? visible[c.key] && !ON_CARD.has(c.key) : fit.moved.includes(c.key)))
        .filter((c) => !IN_DETAILS.has(c.key))
        .map((c) => [i18n._(c.label), cells[c.key](record)] as [string, ReactNode])}
    />
  );

  return (
    <Page
      title={<Trans>Usage logs</Trans>}
      actions={
        <Tooltip label={t`Column settings`}>
          <ActionIcon variant="default" size="lg" onClick={settings.open} aria-label={t`Column settings`}>
            <IconColumns3 size={18} />
          </ActionIcon>
        </Tooltip>
      }
    >
      <Group gap="xs" data-testid="log-stats">
        {stat.isLoading ? (
          <Skeleton h={22} w={320} />
        ) : (
          <>
            <Badge size="lg" variant="light" color="blue" tt="none">
              {/* At whole cents like the balance beside it, the exact amount on hover (issue 45). */}
              {t`Consumed`}: <Money quota={stat.data?.quota ?? 0} />
            </Badge>
            {/* The server counts the consume rows of the last 60 s, whatever the range (api-contract §5). */}
            <Badge size="lg" variant="light" color="pink" tt="none" data-testid="log-rpm">
              <Trans>RPM (last 60 s): {formatCount(stat.data?.rpm ?? 0)}</Trans>
            </Badge>
            <Badge size="lg" variant="light" color="grape" tt="none" data-testid="log-tpm">
              <Trans>TPM (last 60 s): {formatCount(stat.data?.tpm ?? 0)}</Trans>
            </Badge>
            <Badge size="lg" variant="light" color="gray" tt="none">
              {t`Tokens on this page`}: {formatCount(pageTokens)}
            </Badge>
            {self.data && (
              <Badge size="lg" variant="light" color="teal" tt="none" data-testid="log-balance">
                {t`Balance`}: <Money quota={self.data.quota} balance />
              </Badge>
            )}
          </>
        )}
      </Group>

      <Card withBorder padding="md" radius="md">
        <LogFilters
          admin={admin}
          initial={filters}
          fetching={list.isFetching}
          onSubmit={(f) => {
            setFilters(f);
            setPage(1);
            void list.refetch();
            void stat.refetch();
            void self.refetch();
          }}
        />
      </Card>

      {/* On a phone the shared table's cards, with the usage log's own face. */}
      <Box ref={tableBox} data-testid={phone ? undefined : 'log-table'}>
        <PagedTable<Row>
          records={rows}
          columns={columns}
          idAccessor="rowKey"
          total={list.data?.total ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={(n) => {
            setPageSize(n);
            setPage(1);
          }}
          fetching={list.isFetching}
          rowExpansion={{
            allowMultiple: true,
            expanded: { recordIds: expanded, onRecordIdsChange: (ids: unknown[]) => setExpanded(ids as string[]) },
            content: ({ record }) => details(record),
          }}
          phoneCard={(l, state) => <LogCardFace log={l} cells={cells} admin={admin} state={state} />}
          phoneDetails={details}
          phoneCardTestId="log-card"
        />
      </Box>

      <ColumnSettingsModal
        opened={settingsOpen}
        onClose={settings.close}
        columns={availableColumns(admin)}
        value={visible}
        defaults={() => defaultVisibility(admin)}
        onSave={setVisible}
      />
      {admin && <UserInfoModal userId={userInfoId} onClose={() => setUserInfoId(null)} />}
    </Page>
  );
}
