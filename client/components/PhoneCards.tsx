import { Plural } from '@lingui/react/macro';
import { Box, Card, Center, Collapse, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type CSSProperties, type ReactNode, useState } from 'react';

/** Where the console switches its tables to cards (the usage log's breakpoint since issue 24). */
export const PHONE_QUERY = '(max-width: 600px)';

/** True on a phone-width screen: tables show cards there. */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY) ?? false;
}

export interface CardState {
  open: boolean;
  toggle: () => void;
}

interface Props<T> {
  records: T[];
  rowKey: (record: T) => string;
  /** The card's face: what decides whether to look closer. `state` opens the details. */
  card: (record: T, state: CardState) => ReactNode;
  /** What an opened card adds; leave out for cards that never open. */
  details?: (record: T) => ReactNode;
  /** Controlled open cards (by rowKey); uncontrolled when left out. */
  expanded?: string[];
  onToggle?: (rowKey: string) => void;
  fetching?: boolean;
  noRecordsText: string;
  /** Paging below the cards, e.g. `<CardPager>`. */
  footer?: ReactNode;
  rowStyle?: (record: T) => CSSProperties | undefined;
  /** Each card's data-testid. */
  cardTestId?: string;
}

/**
 * A list on a phone: one card per row, its details one tap away, so nothing runs off the screen.
 * Shared by every table of the console (PagedTable, ListTable) and the usage log's own card face.
 */
export function PhoneCards<T>(p: Props<T>) {
  const [own, setOwn] = useState<string[]>([]);
  const expanded = p.expanded ?? own;
  const toggle = (key: string) =>
    p.onToggle ? p.onToggle(key) : setOwn((e) => (e.includes(key) ? e.filter((k) => k !== key) : [...e, key]));
  return (
    <Stack gap="xs" data-testid="phone-cards">
      {p.records.length === 0 && (
        <Card withBorder radius="md">
          <Center h={96}>{p.fetching ? <Loader size="sm" /> : <Text c="dimmed">{p.noRecordsText}</Text>}</Center>
        </Card>
      )}
      {p.records.map((r) => {
        const key = p.rowKey(r);
        const open = expanded.includes(key);
        return (
          <Card
            key={key}
            withBorder
            radius="md"
            padding={0}
            data-testid={p.cardTestId ?? 'phone-card'}
            style={p.rowStyle?.(r)}
          >
            {p.card(r, { open, toggle: () => toggle(key) })}
            {p.details && (
              <Collapse expanded={open}>
                {open && (
                  <Box style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>{p.details(r)}</Box>
                )}
              </Collapse>
            )}
          </Card>
        );
      })}
      {p.footer}
    </Stack>
  );
}

/** Numbered paging under phone cards: the row count and a compact pager. */
export function CardPager(p: { total: number; page: number; pageSize: number; onPageChange: (page: number) => void }) {
  if (p.total <= 0) return null;
  const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        <Plural value={p.total} one="# row" other="# rows" />
      </Text>
      <Pagination size="sm" total={pages} value={p.page} onChange={p.onPageChange} siblings={0} boundaries={1} />
    </Group>
  );
}
