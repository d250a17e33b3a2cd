import { useLingui } from '@lingui/react/macro';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { pageSizeOptions } from '../../components/usePageSize.ts';
import classes from './channels.module.css';
import { channelEntry, channelsOf, type Entry, isDisabled } from './types.ts';

interface Props {
  entries: Entry[];
  columns: DataTableColumn<Entry>[];
  total: number;
  page: number;
  pageSize: number;
  fetching: boolean;
  selected: Entry[];
  onSelect: (e: Entry[]) => void;
  onPageChange: (p: number) => void;
  onPageSizeChange: (n: number) => void;
}

const greyed = (e: Entry) => (channelsOf(e).every(isDisabled) ? { opacity: 0.55 } : undefined);

/** The paged channel table; in tag mode a tag row expands into its channels. */
export function ChannelTable(p: Props) {
  const { t } = useLingui();
  return (
    <DataTable<Entry>
      className={classes.table}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="sm"
      minHeight={p.entries.length ? undefined : 180}
      records={p.entries}
      columns={p.columns}
      fetching={p.fetching}
      idAccessor="rowKey"
      selectedRecords={p.selected}
      onSelectedRecordsChange={p.onSelect}
      rowStyle={greyed}
      noRecordsText={t`No data`}
      totalRecords={p.total}
      recordsPerPage={p.pageSize}
      page={p.page}
      onPageChange={p.onPageChange}
      recordsPerPageOptions={pageSizeOptions}
      onRecordsPerPageChange={p.onPageSizeChange}
      recordsPerPageLabel={t`Per page`}
      paginationText={({ from, to, totalRecords }) => t`${from}-${to} of ${totalRecords}`}
      rowExpansion={{
        allowMultiple: true,
        expandable: ({ record }) => record.kind === 'tag',
        content: ({ record }) => (
          <div className={classes.nested}>
            <DataTable<Entry>
              withTableBorder
              borderRadius="sm"
              verticalSpacing="xs"
              records={channelsOf(record).map(channelEntry)}
              columns={p.columns}
              idAccessor="rowKey"
              rowStyle={greyed}
            />
          </div>
        ),
      }}
    />
  );
}
