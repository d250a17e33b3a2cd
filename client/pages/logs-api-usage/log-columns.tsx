import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Avatar, Badge, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import type { ReactNode } from 'react';
import { CellText } from '../../components/CellText.tsx';
import { formatCount, renderQuota } from '../../lib/format.ts';
import { EXPANDER_WIDTH, type LogColumnKey, logColumns } from './columns.ts';
import {
  firstTokenColor,
  imagesOf,
  isConsumeLike,
  isError,
  paidFromPlan,
  parseOther,
  retryChain,
  useTimeColor,
} from './log-meta.ts';
import { logText } from './log-text.ts';
import { logTypeMeta } from './log-types.ts';
import type { LogItem } from './types.ts';

interface Ctx {
  i18n: I18n;
  onUserClick: (userId: number) => void;
}

const dash = <Text c="dimmed">-</Text>;
const p2 = (n: number) => String(n).padStart(2, '0');

/** "2026-01-02" and "15:04:05" in the browser's zone: the time column's two lines. */
export function dateAndTime(seconds: number): [string, string] {
  const d = new Date(seconds * 1000);
  return [
    `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}`,
    `${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`,
  ];
}

/** A badge that keeps to its column and shows the whole text on hover when cut. */
function CutBadge({ text, color, variant, max }: { text: string; color?: string; variant: string; max: number }) {
  return (
    <Tooltip label={text} openDelay={400} disabled={text.length < 14}>
      <Badge tt="none" variant={variant} color={color} maw={max} style={{ cursor: 'default' }}>
        {text}
      </Badge>
    </Tooltip>
  );
}

/**
 * What an error row says at a glance (issue 28): the status the client got, the error code, which
 * attempt failed and whether the call went on to another channel.
 */
export function ErrorBadges({ log, i18n }: { log: LogItem; i18n: I18n }) {
  const o = parseOther(log.other);
  const attempt = o.attempt ?? 0;
  return (
    <Group gap={4} wrap="wrap" data-testid="log-error-badges">
      {o.status_code !== undefined && (
        <Badge color="red" variant="filled" tt="none" data-testid="log-error-status">
          {o.status_code}
        </Badge>
      )}
      {o.error_code && <CutBadge text={o.error_code} color="red" variant="light" max={200} />}
      {attempt > 0 && (
        <Badge color="gray" variant="light" tt="none">
          {i18n._(msg`Attempt ${attempt}`)}
        </Badge>
      )}
      {o.retried && (
        <Badge color="orange" variant="light" tt="none" data-testid="log-error-retried">
          {i18n._(msg`Retried`)}
        </Badge>
      )}
    </Group>
  );
}

/**
 * "Paid from plan Basic" when a subscription's pool paid the call instead of the wallet (issue 39),
 * so a plan's spending is not mistaken for the wallet's; nothing for a wallet-paid row.
 */
export function PaidFromPlan({ log, i18n }: { log: LogItem; i18n: I18n }) {
  const plan = paidFromPlan(parseOther(log.other));
  if (!plan) return null;
  const _ = i18n._.bind(i18n);
  const title = plan.title;
  return (
    <Text
      size="xs"
      c="blue"
      fw={500}
      lineClamp={1}
      maw={240}
      style={{ wordBreak: 'break-all' }}
      data-testid="log-paid-by-plan"
    >
      {title ? _(msg`Paid from plan ${title}`) : _(msg`Paid from a subscription`)}
    </Text>
  );
}

/** How each column shows a row; the phone cards and the expanded row reuse these. */
export function logCells({ i18n, onUserClick }: Ctx): Record<LogColumnKey, (l: LogItem) => ReactNode> {
  const _ = (d: MessageDescriptor) => i18n._(d);
  return {
    time: (l) => {
      const [date, time] = dateAndTime(l.created_at);
      return (
        <Stack gap={0}>
          <Text size="xs" c="dimmed" lh={1.3}>
            {date}
          </Text>
          <Text size="sm" lh={1.3} ff="monospace">
            {time}
          </Text>
        </Stack>
      );
    },
    channel: (l) =>
      l.channel ? (
        <Tooltip label={l.channel_name || '-'} disabled={!l.channel_name}>
          <Badge tt="none" variant="light" color="gray">
            {l.channel}
          </Badge>
        </Tooltip>
      ) : (
        dash
      ),
    username: (l) => (
      <UnstyledButton onClick={() => onUserClick(l.user_id)} aria-label={l.username} maw="100%">
        <Group gap={6} wrap="nowrap">
          <Avatar size={22} radius="xl" color="indigo" name={l.username} />
          <Text size="sm" truncate="end">
            {l.username}
          </Text>
        </Group>
      </UnstyledButton>
    ),
    token: (l) => (l.token_name ? <CutBadge text={l.token_name} variant="outline" max={104} /> : dash),
    group: (l) => (l.group ? <CutBadge text={l.group} variant="light" max={80} /> : dash),
    type: (l) => {
      const meta = logTypeMeta(l.type);
      return (
        <Badge tt="none" color={meta.color} variant="light">
          {_(meta.label)}
        </Badge>
      );
    },
    model: (l) => {
      if (!isConsumeLike(l.type) || !l.model_name) return dash;
      const o = parseOther(l.other);
      const text = `${l.model_name}${o.is_model_mapped ? ' *' : ''}`;
      return (
        <Tooltip
          label={o.is_model_mapped ? `${l.model_name} → ${o.upstream_model_name}` : l.model_name}
          disabled={!o.is_model_mapped && l.model_name.length < 24}
          openDelay={300}
        >
          <Badge tt="none" variant="light" color="blue" maw={180} style={{ cursor: 'default' }}>
            {text}
          </Badge>
        </Tooltip>
      );
    },
    use_time: (l) => {
      if (!isConsumeLike(l.type)) return dash;
      const frt = parseOther(l.other).frt;
      return (
        <Group gap={4}>
          <Badge tt="none" color={useTimeColor(l.use_time)} variant="light">
            {l.use_time} s
          </Badge>
          {l.is_stream && frt !== undefined && frt > 0 ? (
            <Badge tt="none" color={firstTokenColor(frt / 1000)} variant="light">
              {(frt / 1000).toFixed(1)} s
            </Badge>
          ) : null}
          <Text size="xs" c="dimmed">
            {l.is_stream ? _(msg`Stream`) : _(msg`Non-stream`)}
          </Text>
        </Group>
      );
    },
    tokens: (l) => {
      if (!isConsumeLike(l.type) || isError(l.type)) return dash;
      const o = parseOther(l.other);
      // An image call (issue 44): the pictures it returned and their size, under its tokens (if any).
      const images = imagesOf(o);
      if (images) {
        const count = images.count;
        return (
          <Stack gap={0} align="flex-end">
            {(l.prompt_tokens > 0 || l.completion_tokens > 0) && (
              <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {formatCount(l.prompt_tokens)}
                <Text span c="dimmed">
                  {' / '}
                </Text>
                {formatCount(l.completion_tokens)}
              </Text>
            )}
            <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="log-images">
              {plural(count, { one: '# image', other: '# images' })}
            </Text>
            {images.size && (
              <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {images.size}
              </Text>
            )}
          </Stack>
        );
      }
      // The prompt tokens the upstream read from its prompt cache (issue 29: is the session's cache kept warm?).
      const cached = o.cache_tokens ?? 0;
      const inOut = (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {formatCount(l.prompt_tokens)}
          <Text span c="dimmed">
            {' / '}
          </Text>
          {formatCount(l.completion_tokens)}
        </Text>
      );
      if (cached <= 0) return inOut;
      const count = formatCount(cached);
      return (
        <Stack gap={0} align="flex-end">
          {inOut}
          <Text size="xs" c="teal" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="log-cache-read">
            {_(msg`${count} cached`)}
          </Text>
        </Stack>
      );
    },
    quota: (l) =>
      isConsumeLike(l.type) && !isError(l.type) ? (
        <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="log-cost">
          {renderQuota(l.quota)}
        </Text>
      ) : (
        dash
      ),
    retry: (l) => {
      const chain = retryChain(parseOther(l.other));
      return chain.length > 1 ? <Text size="sm">{chain.join(' → ')}</Text> : dash;
    },
    details: (l) => {
      const text = (
        // Two lines at most 360 px: a long error never widens the table; all of it on hover or opened (issue 45).
        <CellText lines={2} maxWidth={360}>
          {logText(l) || '-'}
        </CellText>
      );
      if (!isError(l.type)) {
        const plan = <PaidFromPlan log={l} i18n={i18n} />;
        return paidFromPlan(parseOther(l.other)) ? (
          <Stack gap={2}>
            {plan}
            {text}
          </Stack>
        ) : (
          text
        );
      }
      return (
        <Stack gap={4} data-testid="log-error">
          <ErrorBadges log={l} i18n={i18n} />
          {text}
        </Stack>
      );
    },
  };
}

/** Headers that differ from the column-settings label (shorter, to fit the width). */
const HEADERS: Partial<Record<LogColumnKey, MessageDescriptor>> = {
  use_time: msg`Time / first token`,
  tokens: msg`Tokens in / out`,
};

/** The usage-log table's columns (spec §2.5): an expander, then the columns that fit, in order. */
export function buildLogColumns(
  ctx: Ctx,
  shown: readonly LogColumnKey[],
  isExpanded: (l: LogItem) => boolean,
): DataTableColumn<LogItem>[] {
  const cells = logCells(ctx);
  const _ = (d: MessageDescriptor) => ctx.i18n._(d);
  const expander: DataTableColumn<LogItem> = {
    accessor: 'expander',
    title: '',
    width: EXPANDER_WIDTH,
    render: (l) => (
      <IconChevronRight
        size={16}
        aria-hidden
        style={{ transition: 'transform 150ms', transform: isExpanded(l) ? 'rotate(90deg)' : undefined, opacity: 0.6 }}
      />
    ),
  };
  const right = new Set<LogColumnKey>(['tokens', 'quota']);
  const cols = logColumns
    .filter((c) => shown.includes(c.key))
    .map((c): DataTableColumn<LogItem> => ({
      accessor: c.key,
      title: _(HEADERS[c.key] ?? c.label),
      // The details column takes what is left; the others keep their width and cut their text.
      width: c.key === 'details' ? undefined : c.width,
      textAlign: right.has(c.key) ? 'right' : undefined,
      // A header longer than its column (some languages) wraps instead of being cut.
      titleStyle: { whiteSpace: 'normal', lineHeight: 1.25 },
      noWrap: c.key !== 'details' && c.key !== 'use_time',
      cellsStyle: () => ({ maxWidth: c.key === 'details' ? undefined : c.width, overflow: 'hidden' }),
      render: cells[c.key],
    }));
  return [expander, ...cols];
}
