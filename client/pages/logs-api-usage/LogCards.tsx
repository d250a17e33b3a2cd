import { useLingui } from '@lingui/react/macro';
import { Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { CardState } from '../../components/PhoneCards.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import type { LogColumnKey } from './columns.ts';
import { PaidFromPlan } from './log-columns.tsx';
import { isConsumeLike, isError } from './log-meta.ts';
import type { LogItem } from './types.ts';

interface Props {
  log: LogItem;
  cells: Record<LogColumnKey, (l: LogItem) => ReactNode>;
  /** The admin sees whose row it is. */
  admin: boolean;
  state: CardState;
}

/**
 * A usage-log row on a phone (the shared table's card, with this face): what decides whether to
 * look closer (model, cost, time, tokens, who); the whole face opens the details.
 */
export function LogCardFace({ log: l, cells, admin, state }: Props) {
  const { t, i18n } = useLingui();
  return (
    <UnstyledButton
      onClick={state.toggle}
      aria-expanded={state.open}
      aria-label={t`Details`}
      p="sm"
      style={{ display: 'block', width: '100%' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Box miw={0} style={{ flex: 1 }}>
          {isConsumeLike(l.type) ? cells.model(l) : cells.type(l)}
        </Box>
        {!isError(l.type) && (
          <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
            {cells.quota(l)}
            <PaidFromPlan log={l} i18n={i18n} />
          </Stack>
        )}
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
            {cells.tokens(l)}
          </Group>
        )}
      </Group>
      {/* An error row: its status, code, attempt and reason (issue 28). */}
      {isError(l.type) && <Box mt={6}>{cells.details(l)}</Box>}
      <Group justify="space-between" wrap="nowrap" gap="xs" mt={6}>
        <Group gap={6} wrap="nowrap" miw={0} style={{ overflow: 'hidden' }}>
          {admin && (
            <Text size="sm" truncate="end" miw={0}>
              {l.username}
            </Text>
          )}
          {l.token_name && <Box miw={0}>{cells.token(l)}</Box>}
        </Group>
        <IconChevronDown
          size={16}
          aria-hidden
          style={{ flexShrink: 0, opacity: 0.6, transform: state.open ? 'rotate(180deg)' : undefined }}
        />
      </Group>
    </UnstyledButton>
  );
}
