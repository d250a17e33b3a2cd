import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Avatar, Badge, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { formatTimestamp, renderQuota } from '../../lib/format.ts';
import type { ColumnVisibility } from './columns.ts';
import { firstTokenColor, isConsumeLike, parseOther, retryChain, useTimeColor } from './log-meta.ts';
import { logTypeMeta } from './log-types.ts';
import type { LogItem } from './types.ts';

interface Ctx {
  i18n: I18n;
  visible: ColumnVisibility;
  onUserClick: (userId: number) => void;
}

const dash = <Text c="dimmed">-</Text>;

/** The usage-log table's columns (spec §2.5), hidden ones left out. */
export function buildLogColumns({ i18n, visible, onUserClick }: Ctx): DataTableColumn<LogItem>[] {
  const _ = (d: MessageDescriptor) => i18n._(d);
  const cols: (DataTableColumn<LogItem> & { key: keyof ColumnVisibility })[] = [
    {
      key: 'time',
      accessor: 'created_at',
      title: _(msg`Time`),
      noWrap: true,
      render: (l) => formatTimestamp(l.created_at),
    },
    {
      key: 'channel',
      accessor: 'channel',
      title: _(msg`Channel`),
      render: (l) =>
        l.channel ? (
          <Tooltip label={l.channel_name || '-'} disabled={!l.channel_name}>
            <Badge miw="max-content" tt="none" variant="light" color="gray">
              {l.channel}
            </Badge>
          </Tooltip>
        ) : (
          dash
        ),
    },
    {
      key: 'username',
      accessor: 'username',
      title: _(msg`User`),
      render: (l) => (
        <UnstyledButton onClick={() => onUserClick(l.user_id)} aria-label={l.username}>
          <Group gap={6} wrap="nowrap">
            <Avatar size={24} radius="xl" color="indigo" name={l.username} />
            <Text size="sm">{l.username}</Text>
          </Group>
        </UnstyledButton>
      ),
    },
    {
      key: 'token',
      accessor: 'token_name',
      title: _(msg`Token`),
      render: (l) =>
        l.token_name ? (
          <Badge miw="max-content" tt="none" variant="outline">
            {l.token_name}
          </Badge>
        ) : (
          dash
        ),
    },
    {
      key: 'group',
      accessor: 'group',
      title: _(msg`Group`),
      render: (l) =>
        l.group ? (
          <Badge miw="max-content" tt="none" variant="light">
            {l.group}
          </Badge>
        ) : (
          dash
        ),
    },
    {
      key: 'type',
      accessor: 'type',
      title: _(msg`Type`),
      render: (l) => {
        const meta = logTypeMeta(l.type);
        return (
          <Badge miw="max-content" tt="none" color={meta.color} variant="light">
            {_(meta.label)}
          </Badge>
        );
      },
    },
    {
      key: 'model',
      accessor: 'model_name',
      title: _(msg`Model`),
      render: (l) => {
        if (!isConsumeLike(l.type) || !l.model_name) return dash;
        const o = parseOther(l.other);
        return (
          <Tooltip label={`→ ${o.upstream_model_name}`} disabled={!o.is_model_mapped}>
            <Badge miw="max-content" tt="none" variant="light" color="blue">
              {l.model_name}
              {o.is_model_mapped ? ' *' : ''}
            </Badge>
          </Tooltip>
        );
      },
    },
    {
      key: 'use_time',
      accessor: 'use_time',
      title: _(msg`Time taken / first token`),
      render: (l) => {
        if (!isConsumeLike(l.type)) return dash;
        const frt = parseOther(l.other).frt;
        return (
          <Group gap={4} wrap="nowrap">
            <Badge miw="max-content" tt="none" color={useTimeColor(l.use_time)} variant="light">
              {l.use_time} s
            </Badge>
            {l.is_stream && frt !== undefined && frt > 0 && (
              <Badge miw="max-content" tt="none" color={firstTokenColor(frt / 1000)} variant="light">
                {(frt / 1000).toFixed(1)} s
              </Badge>
            )}
            <Badge miw="max-content" tt="none" color={l.is_stream ? 'blue' : 'gray'} variant="outline">
              {l.is_stream ? _(msg`Stream`) : _(msg`Non-stream`)}
            </Badge>
          </Group>
        );
      },
    },
    {
      key: 'prompt',
      accessor: 'prompt_tokens',
      title: _(msg`Prompt`),
      textAlign: 'right',
      render: (l) => (isConsumeLike(l.type) ? l.prompt_tokens : dash),
    },
    {
      key: 'completion',
      accessor: 'completion_tokens',
      title: _(msg`Completion`),
      textAlign: 'right',
      render: (l) => (isConsumeLike(l.type) ? l.completion_tokens : dash),
    },
    {
      key: 'quota',
      accessor: 'quota',
      title: _(msg`Cost`),
      textAlign: 'right',
      noWrap: true,
      render: (l) => (isConsumeLike(l.type) ? renderQuota(l.quota, 6) : dash),
    },
    {
      key: 'retry',
      accessor: 'other',
      title: _(msg`Retry`),
      render: (l) => {
        const chain = retryChain(parseOther(l.other));
        return chain.length > 1 ? <Text size="sm">{chain.join(' → ')}</Text> : dash;
      },
    },
    {
      key: 'details',
      accessor: 'content',
      title: _(msg`Details`),
      noWrap: false,
      render: (l) => (
        <Text size="sm" lineClamp={2} miw={200} maw={320}>
          {l.content || '-'}
        </Text>
      ),
    },
  ];
  return cols.filter((c) => visible[c.key]).map(({ key: _key, ...c }) => ({ ...c, id: _key }));
}
