import { useLingui } from '@lingui/react/macro';
import { Box, Checkbox, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { type DataTableColumn, getValueAtPath } from 'mantine-datatable';
import type { ReactNode } from 'react';
import type { CardState } from './PhoneCards.tsx';

/**
 * Where a column goes on a phone card (issue 31): `title` top left (the row's name), `badge` beside it
 * (status, role: never cut), `actions` top right, `field` a labelled value in two columns, `wide` one
 * across the card (a key). Columns without a place are behind the card's "More".
 */
export type PhonePlace = 'title' | 'badge' | 'actions' | 'field' | 'wide';

/** A table column that also says where it goes on a phone card. */
export type TableColumn<T> = DataTableColumn<T> & { phone?: PhonePlace };

/** The table's own columns (the phone place is ours, not mantine-datatable's). */
export function tableColumns<T>(columns: TableColumn<T>[]): DataTableColumn<T>[] {
  return columns.map(({ phone: _phone, ...c }) => c as DataTableColumn<T>);
}

/** Whether the columns describe a card (pages that declare no place keep the table on phones). */
export function hasPhonePlaces<T>(columns: TableColumn<T>[]): boolean {
  return columns.some((c) => c.phone);
}

function cell<T>(c: TableColumn<T>, r: T, i: number): ReactNode {
  if (c.render) return c.render(r, i);
  const v = getValueAtPath(r, c.accessor as string);
  return v == null ? '' : String(v as string | number);
}

const label = <T,>(c: TableColumn<T>) => c.title ?? String(c.accessor);
const shown = <T,>(columns: TableColumn<T>[]) => columns.filter((c) => !c.hidden);

interface FaceProps<T> {
  columns: TableColumn<T>[];
  record: T;
  index: number;
  state: CardState;
  /** Checkbox selection, as the table's. */
  selected?: boolean;
  onSelect?: (checked: boolean) => void;
  /** Whether the card opens (columns behind "More", or an expansion). */
  opens: boolean;
}

/** A phone card's face built from the columns' places. */
export function ColumnCardFace<T>(p: FaceProps<T>) {
  const { t } = useLingui();
  const cols = shown(p.columns);
  const at = (place: PhonePlace) => cols.filter((c) => c.phone === place);
  const fields = cols.filter((c) => c.phone === 'field' || c.phone === 'wide');
  return (
    <Box p="sm">
      <Group wrap="nowrap" align="flex-start" gap="xs">
        {p.onSelect && (
          <Checkbox
            mt={2}
            aria-label={t`Select row`}
            checked={p.selected ?? false}
            onChange={(e) => p.onSelect?.(e.currentTarget.checked)}
          />
        )}
        <Group gap={6} miw={0} style={{ flex: 1 }} wrap="wrap">
          {at('title').map((c) => (
            <Box key={String(c.accessor)} miw={0} style={{ overflowWrap: 'anywhere' }}>
              {cell(c, p.record, p.index)}
            </Box>
          ))}
          {at('badge').map((c) => (
            <Box key={String(c.accessor)} data-testid={`phone-badge-${String(c.accessor)}`} style={{ flexShrink: 0 }}>
              {cell(c, p.record, p.index)}
            </Box>
          ))}
        </Group>
        {at('actions').map((c) => (
          <Box key={String(c.accessor)} style={{ flexShrink: 0 }}>
            {cell(c, p.record, p.index)}
          </Box>
        ))}
      </Group>
      {fields.length > 0 && (
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} mt="xs">
          {fields.map((c) => (
            <Box
              key={String(c.accessor)}
              miw={0}
              style={c.phone === 'wide' ? { gridColumn: '1 / -1' } : undefined}
              data-testid={`phone-field-${String(c.accessor)}`}
            >
              <Text size="xs" c="dimmed">
                {label(c)}
              </Text>
              <Box miw={0} style={{ overflowWrap: 'anywhere' }}>
                {cell(c, p.record, p.index)}
              </Box>
            </Box>
          ))}
        </SimpleGrid>
      )}
      {p.opens && (
        <UnstyledButton
          onClick={p.state.toggle}
          aria-expanded={p.state.open}
          mt={6}
          style={{ display: 'flex', width: '100%', justifyContent: 'center', opacity: 0.7 }}
        >
          <Group gap={4}>
            <Text size="xs">{p.state.open ? t`Less` : t`More`}</Text>
            <IconChevronDown size={14} aria-hidden style={{ transform: p.state.open ? 'rotate(180deg)' : undefined }} />
          </Group>
        </UnstyledButton>
      )}
    </Box>
  );
}

/** The columns without a place on the card: what an opened card lists. */
export function unplacedColumns<T>(columns: TableColumn<T>[]): TableColumn<T>[] {
  return shown(columns).filter((c) => !c.phone && c.title !== '');
}

/** An opened card: the other columns as label and value, then any expansion the table had. */
export function ColumnCardDetails<T>(p: { columns: TableColumn<T>[]; record: T; index: number; extra?: ReactNode }) {
  return (
    <Stack gap={6} p="sm">
      {unplacedColumns(p.columns).map((c) => (
        <Group key={String(c.accessor)} justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {label(c)}
          </Text>
          <Box miw={0} ta="right" style={{ overflowWrap: 'anywhere' }}>
            {cell(c, p.record, p.index)}
          </Box>
        </Group>
      ))}
      {p.extra}
    </Stack>
  );
}
