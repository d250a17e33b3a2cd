import { useLingui } from '@lingui/react/macro';
import { DataTable as MantineDataTable, type DataTableProps } from 'mantine-datatable';
import { pageSizeOptions } from './usePageSize.ts';

export interface PagedTableProps<T> {
  records: T[];
  columns: NonNullable<DataTableProps<T>['columns']>;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  fetching?: boolean;
  idAccessor?: keyof T & string;
  rowStyle?: DataTableProps<T>['rowStyle'];
  minHeight?: number;
  /** Narrow screens scroll the table sideways instead of squeezing cells below this width. */
  tableMinWidth?: number;
  /** Keeps the last column (row actions) visible while scrolling sideways. */
  pinLastColumn?: boolean;
  /** Checkbox selection (batch actions); leave both out for a table without checkboxes. */
  selectedRecords?: T[];
  onSelectedRecordsChange?: (records: T[]) => void;
  className?: string;
  /** Rows that open to show more (e.g. a log entry's details). */
  rowExpansion?: DataTableProps<T>['rowExpansion'];
}

/**
 * The console's server-paged table: consistent borders, the spec's page-size options,
 * translated paging text and empty state. Pages pass records, columns and paging state.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { t } = useLingui();
  const { records, columns, total, page, pageSize, fetching, idAccessor, rowStyle, minHeight, tableMinWidth } = props;
  const table = {
    withTableBorder: true,
    borderRadius: 'md',
    highlightOnHover: true,
    verticalSpacing: 'sm',
    minHeight: minHeight ?? (records.length ? undefined : 180),
    records,
    columns,
    fetching,
    idAccessor: idAccessor ?? ('id' as keyof T & string),
    rowStyle,
    pinLastColumn: props.pinLastColumn,
    className: props.className,
    rowExpansion: props.rowExpansion,
    ...(props.onSelectedRecordsChange
      ? { selectedRecords: props.selectedRecords ?? [], onSelectedRecordsChange: props.onSelectedRecordsChange }
      : {}),
    defaultColumnProps: { noWrap: true },
    styles: tableMinWidth ? { table: { minWidth: tableMinWidth } } : undefined,
    noRecordsText: t`No data`,
    totalRecords: total,
    recordsPerPage: pageSize,
    page,
    onPageChange: props.onPageChange,
    recordsPerPageOptions: pageSizeOptions,
    onRecordsPerPageChange: props.onPageSizeChange,
    recordsPerPageLabel: t`Per page`,
    paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
      t`${from}-${to} of ${totalRecords}`,
  } as DataTableProps<T>;
  return <MantineDataTable<T> {...table} />;
}
