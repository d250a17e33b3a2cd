import { useLingui } from '@lingui/react/macro';
import { Box, Card, Center, Collapse, Group, Loader, Pagination, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatTimestamp } from '../../lib/format.ts';
import type { LogColumnKey } from './columns.ts';
import { isConsumeLike, isError } from './log-meta.ts';
import type { LogItem } from './types.ts';

interface Props<R extends LogItem & { rowKey: string }> {
  rows: R[];
  cells: Record<LogColumnKey, (l: LogItem) => ReactNode>;
  /** The admin sees whose row it is. */
  admin: boolean;
  expanded: string[];
  onToggle: (rowKey: string) => void;
  details: (row: R) => ReactNode;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  fetching: boolean;
}

/**
 * The usage log on a phone: one card per row with what decides whether to look closer (model,
 * cost, time, tokens, who) and the rest one tap away, so nothing runs off the screen.
 */
export function LogCards<R extends LogItem & { rowKey: string }>(p: Props<R>) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
  return (
    <Stack gap="xs" data-testid="log-cards">
      {p.rows.length === 0 && (
        <Card withBorder radius="md">
          <Center h={96}>{p.fetching ? <Loader size="sm" /> : <Text c="dimmed">{t`No data`}</Text>}</Center>
        </Card>
      )}
      {p.rows.map((l) => {
        const open = p.expanded.includes(l.rowKey);
        return (
          <Card key={l.rowKey} withBorder radius="md" padding={0} data-testid="log-card">
            <UnstyledButton
              onClick={() => p.onToggle(l.rowKey)}
              aria-expanded={open}
              aria-label={t`Details`}
              p="sm"
              style={{ display: 'block', width: '100%' }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                <Box miw={0} style={{ flex: 1 }}>
                  {isConsumeLike(l.type) ? p.cells.model(l) : p.cells.type(l)}
                </Box>
                {!isError(l.type) && <Box style={{ flexShrink: 0 }}>{p.cells.quota(l)}</Box>}
              </Group>
              <Group justify="space-between" wrap="nowrap" gap="xs" mt={6}>
                <Text size="xs" c="dimmed" ff="monospace" style={{ flexShrink: 0 }}>
                  {formatTimestamp(l.created_at)}
                </Text>
                {isConsumeLike(l.type) && !isError(l.type) && (
                  <Group gap={4} wrap="nowrap" miw={0}>
                    <Text size="xs" c="dimmed">
                      {t`Tokens`}
                    </Text>
                    {p.cells.tokens(l)}
                  </Group>
                )}
              </Group>
              {/* An error row: its status, code, attempt and reason (issue 28). */}
              {isError(l.type) && <Box mt={6}>{p.cells.details(l)}</Box>}
              <Group justify="space-between" wrap="nowrap" gap="xs" mt={6}>
                <Group gap={6} wrap="nowrap" miw={0} style={{ overflow: 'hidden' }}>
                  {p.admin && (
                    <Text size="sm" truncate="end" miw={0}>
                      {l.username}
                    </Text>
                  )}
                  {l.token_name && <Box miw={0}>{p.cells.token(l)}</Box>}
                </Group>
                <IconChevronDown
                  size={16}
                  aria-hidden
                  style={{ flexShrink: 0, opacity: 0.6, transform: open ? 'rotate(180deg)' : undefined }}
                />
              </Group>
            </UnstyledButton>
            <Collapse expanded={open}>
              {open && <Box style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>{p.details(l)}</Box>}
            </Collapse>
          </Card>
        );
      })}
      {p.total > 0 && (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {t`${p.total} rows`}
          </Text>
          <Pagination size="sm" total={pages} value={p.page} onChange={p.onPageChange} siblings={0} boundaries={1} />
        </Group>
      )}
    </Stack>
  );
}
