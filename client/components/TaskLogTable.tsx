import { Card } from '@mantine/core';
import { ListTable, type TableColumn } from './DataTable.tsx';
import { PrevNextPager } from './PrevNextPager.tsx';
import { TaskLogFilters, type TaskFilterValues } from './TaskLogFilters.tsx';

/** The task APIs page 10 at a time without a total (api-contract §0.4 style D). */
export const TASK_LOG_PAGE_SIZE = 10;

interface Props<T> {
  admin: boolean;
  filters: TaskFilterValues;
  /** New filters were submitted: the page goes back to the first. */
  onFilters: (f: TaskFilterValues) => void;
  rows: T[];
  columns: TableColumn<T>[];
  fetching: boolean;
  page: number;
  onPage: (page: number) => void;
  /** Keeps the last column (the result button) in view while a wide table scrolls sideways. */
  pinLastColumn?: boolean;
  pagerTestId?: string;
}

/** The drawing and music task logs' body: the filter card, the table and the previous/next pager. */
export function TaskLogTable<T>(p: Props<T>) {
  return (
    <>
      <Card withBorder padding="md" radius="md">
        <TaskLogFilters admin={p.admin} initial={p.filters} fetching={p.fetching} onSubmit={p.onFilters} />
      </Card>
      {/* A dozen columns, prompts and failure reasons among them: wider than a desktop screen, by design. */}
      <ListTable<T>
        records={p.rows}
        columns={p.columns}
        pinLastColumn={p.pinLastColumn}
        scrollsInside
        fetching={p.fetching}
      />
      <PrevNextPager
        page={p.page}
        rows={p.rows.length}
        pageSize={TASK_LOG_PAGE_SIZE}
        onChange={p.onPage}
        testId={p.pagerTestId}
      />
    </>
  );
}
