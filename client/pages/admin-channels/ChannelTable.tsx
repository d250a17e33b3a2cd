import { ListTable, PagedTable, type TableColumn } from '../../components/DataTable.tsx';
import classes from './channels.module.css';
import { channelEntry, channelsOf, type Entry, isDisabled } from './types.ts';

interface Props {
  entries: Entry[];
  columns: TableColumn<Entry>[];
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

/** The paged channel table (cards on a phone); in tag mode a tag row expands into its channels. */
export function ChannelTable(p: Props) {
  return (
    <PagedTable<Entry>
      records={p.entries}
      columns={p.columns}
      fetching={p.fetching}
      idAccessor="rowKey"
      selectedRecords={p.selected}
      onSelectedRecordsChange={p.onSelect}
      rowStyle={greyed}
      // With the sidebar open, 1366 px is too narrow for every column: the row actions stay in view.
      pinLastColumn
      total={p.total}
      page={p.page}
      pageSize={p.pageSize}
      onPageChange={p.onPageChange}
      onPageSizeChange={p.onPageSizeChange}
      rowExpansion={{
        allowMultiple: true,
        expandable: ({ record }) => record.kind === 'tag',
        content: ({ record }) => (
          <div className={classes.nested}>
            <ListTable<Entry>
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
