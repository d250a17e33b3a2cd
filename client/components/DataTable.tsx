import { useLingui } from '@lingui/react/macro';
import { DataTable as MantineDataTable, type DataTableProps } from 'mantine-datatable';
import type { CSSProperties, ReactNode } from 'react';
import {
  ColumnCardDetails,
  ColumnCardFace,
  hasPhonePlaces,
  type TableColumn,
  tableColumns,
  unplacedColumns,
} from './ColumnCard.tsx';
import classes from './DataTable.module.css';
import { CardPager, type CardState, PhoneCards, usePhone } from './PhoneCards.tsx';
import { ScrollCue } from './ScrollCue.tsx';
import { pageSizeOptions } from './usePageSize.ts';

export type { PhonePlace, TableColumn } from './ColumnCard.tsx';

export interface ListTableProps<T> {
  records: T[];
  /**
   * The columns; a column's `phone` place puts it on the phone card (see PhonePlace). With places
   * declared the table becomes one card per row at phone width; without, it stays a table.
   */
  columns: TableColumn<T>[];
  fetching?: boolean;
  idAccessor?: keyof T & string;
  rowStyle?: (record: T) => CSSProperties | undefined;
  minHeight?: number;
  /** Narrow screens scroll the table sideways instead of squeezing cells below this width. */
  tableMinWidth?: number;
  /** Keeps the last column (row actions) visible while scrolling sideways. */
  pinLastColumn?: boolean;
  /**
   * The table is wider than a desktop screen by design and scrolls sideways inside its own frame
   * (the page does not): marked `data-scroll-area`, the mark the layout checks accept.
   */
  scrollsInside?: boolean;
  /** Checkbox selection (batch actions); leave both out for a table without checkboxes. */
  selectedRecords?: T[];
  onSelectedRecordsChange?: (records: T[]) => void;
  className?: string;
  /** Rows that open to show more (e.g. a log entry's details); on a card it is in the opened card. */
  rowExpansion?: DataTableProps<T>['rowExpansion'];
  noRecordsText?: string;
  /** A page's own phone card face instead of the one built from the column places (the usage log's). */
  phoneCard?: (record: T, state: CardState) => ReactNode;
  /** What an opened own phone card shows. */
  phoneDetails?: (record: T) => ReactNode;
  /** Each phone card's data-testid. */
  phoneCardTestId?: string;
}

export interface PagedTableProps<T> extends ListTableProps<T> {
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
}

const keyOf = <T,>(r: T, id: string) => String((r as Record<string, unknown>)[id]);

/** One card per row: the page's own face, or one built from the columns' phone places. */
function Cards<T>(p: ListTableProps<T> & { footer?: ReactNode }) {
  const { t } = useLingui();
  const id = p.idAccessor ?? 'id';
  const index = new Map(p.records.map((r, i) => [r, i]));
  const selected = new Set((p.selectedRecords ?? []).map((r) => keyOf(r, id)));
  const select = (r: T, on: boolean) =>
    p.onSelectedRecordsChange?.(
      on ? [...(p.selectedRecords ?? []), r] : (p.selectedRecords ?? []).filter((s) => keyOf(s, id) !== keyOf(r, id)),
    );
  const expansion = p.rowExpansion;
  const expandable = (r: T) => !!expansion && (expansion.expandable?.({ record: r, index: index.get(r) ?? 0 }) ?? true);
  const controlled = expansion?.expanded;
  const opens = (r: T) => unplacedColumns(p.columns).length > 0 || expandable(r);
  return (
    <div className={classes.fullBadges}>
      <PhoneCards<T>
        records={p.records}
        rowKey={(r) => keyOf(r, id)}
        fetching={p.fetching}
        noRecordsText={p.noRecordsText ?? t`No data`}
        rowStyle={p.rowStyle}
        footer={p.footer}
        cardTestId={p.phoneCardTestId}
        expanded={controlled?.recordIds.map(String)}
        onToggle={
          controlled
            ? (key) => {
                const ids = controlled.recordIds.map(String);
                controlled.onRecordIdsChange?.(ids.includes(key) ? ids.filter((k) => k !== key) : [...ids, key]);
              }
            : undefined
        }
        card={
          p.phoneCard ??
          ((r, state) => (
            <ColumnCardFace<T>
              columns={p.columns}
              record={r}
              index={index.get(r) ?? 0}
              state={state}
              opens={opens(r)}
              selected={selected.has(keyOf(r, id))}
              onSelect={p.onSelectedRecordsChange ? (on) => select(r, on) : undefined}
            />
          ))
        }
        details={
          p.phoneDetails ??
          ((r) => (
            <ColumnCardDetails<T>
              columns={p.columns}
              record={r}
              index={index.get(r) ?? 0}
              extra={
                expandable(r)
                  ? expansion?.content({ record: r, index: index.get(r) ?? 0, collapse: () => undefined })
                  : undefined
              }
            />
          ))
        }
      />
    </div>
  );
}

function tableProps<T>(p: ListTableProps<T>, noRecordsText: string) {
  return {
    withTableBorder: true,
    borderRadius: 'md',
    highlightOnHover: true,
    verticalSpacing: 'sm',
    minHeight: p.minHeight ?? (p.records.length ? undefined : 180),
    records: p.records,
    columns: tableColumns(p.columns),
    fetching: p.fetching,
    idAccessor: p.idAccessor ?? ('id' as keyof T & string),
    rowStyle: p.rowStyle,
    pinLastColumn: p.pinLastColumn,
    scrollAreaProps: p.scrollsInside ? { 'data-scroll-area': true } : undefined,
    className: [classes.fullBadges, p.className].filter(Boolean).join(' '),
    rowExpansion: p.rowExpansion,
    ...(p.onSelectedRecordsChange
      ? { selectedRecords: p.selectedRecords ?? [], onSelectedRecordsChange: p.onSelectedRecordsChange }
      : {}),
    defaultColumnProps: { noWrap: true },
    styles: p.tableMinWidth ? { table: { minWidth: p.tableMinWidth } } : undefined,
    noRecordsText,
  };
}

const cardsOnPhone = <T,>(p: ListTableProps<T>) => !!p.phoneCard || hasPhonePlaces(p.columns);

/**
 * The console's table without paging (a page that lists everything, or pages on its own):
 * consistent borders and empty state, badges never cut, one card per row on a phone.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const { t } = useLingui();
  const phone = usePhone();
  if (phone && cardsOnPhone(props)) return <Cards<T> {...props} />;
  const table = tableProps(props, props.noRecordsText ?? t`No data`) as DataTableProps<T>;
  return (
    <ScrollCue>
      <MantineDataTable<T> {...table} />
    </ScrollCue>
  );
}

/**
 * The console's server-paged table: consistent borders, the spec's page-size options,
 * translated paging text and empty state; one card per row on a phone, each page saying
 * which columns matter there (`phone` on a column). Pages pass records, columns and paging state.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { t } = useLingui();
  const phone = usePhone();
  if (phone && cardsOnPhone(props))
    return (
      <Cards<T>
        {...props}
        footer={
          <CardPager
            total={props.total}
            page={props.page}
            pageSize={props.pageSize}
            onPageChange={props.onPageChange}
          />
        }
      />
    );
  const table = {
    ...tableProps(props, props.noRecordsText ?? t`No data`),
    totalRecords: props.total,
    recordsPerPage: props.pageSize,
    page: props.page,
    onPageChange: props.onPageChange,
    recordsPerPageOptions: pageSizeOptions,
    onRecordsPerPageChange: props.onPageSizeChange,
    recordsPerPageLabel: t`Per page`,
    paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
      t`${from}-${to} of ${totalRecords}`,
  } as DataTableProps<T>;
  return (
    <ScrollCue>
      <MantineDataTable<T> {...table} />
    </ScrollCue>
  );
}
