import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import type { TableColumn } from '../../components/DataTable.tsx';
import { Money } from '../../components/Money.tsx';
import { BalanceCell } from './BalanceCell.tsx';
import { GroupBadges, NameCell, TagNameCell, TagStatus, unionGroups } from './cells.tsx';
import type { ChannelColumnKey, ColumnVisibility } from './column-prefs.ts';
import { InlineNumber } from './InlineNumber.tsx';
import { ResponseTime } from './ResponseTime.tsx';
import { RowActions } from './RowActions.tsx';
import { ChannelStatusBadge } from './StatusBadge.tsx';
import { TagActions } from './TagActions.tsx';
import { type ChannelRow, type Entry, spread, splitCsv, typeName } from './types.ts';

export interface ColumnHandlers {
  onEdit: (c: ChannelRow) => void;
  onTest: (id: number) => void;
  onPickModel: (c: ChannelRow) => void;
  testingId: number | undefined;
  onEditTag: (tag: string) => void;
  onPatch: (id: number, patch: { priority?: number; weight?: number }) => void;
  onPatchTag: (tag: string, patch: { priority?: number; weight?: number }) => void;
}

const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
const dash = <Text c="dimmed">-</Text>;

export function useChannelColumns(h: ColumnHandlers, visible: ColumnVisibility): TableColumn<Entry>[] {
  const { t } = useLingui();
  const cols: (TableColumn<Entry> & { key: ChannelColumnKey | 'actions' })[] = [
    {
      key: 'id',
      accessor: 'id',
      title: 'ID',
      width: 70,
      render: (e) => (e.kind === 'tag' ? dash : <span style={num}>{e.channel.id}</span>),
    },
    {
      key: 'name',
      accessor: 'name',
      title: t`Name`,
      phone: 'title',
      render: (e) =>
        e.kind === 'tag' ? <TagNameCell tag={e.tag} count={e.channels.length} /> : <NameCell channel={e.channel} />,
    },
    {
      key: 'type',
      accessor: 'type',
      title: t`Type`,
      phone: 'field',
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {e.kind === 'tag'
            ? [...new Set(e.channels.map((c) => typeName(c.type)))].join(', ')
            : typeName(e.channel.type)}
        </Text>
      ),
    },
    {
      key: 'status',
      accessor: 'status',
      title: t`Status`,
      phone: 'badge',
      render: (e) =>
        e.kind === 'tag' ? <TagStatus channels={e.channels} /> : <ChannelStatusBadge channel={e.channel} />,
    },
    {
      key: 'response',
      accessor: 'response_time',
      title: t`Response time`,
      phone: 'field',
      render: (e) =>
        e.kind === 'tag' ? (
          dash
        ) : (
          <ResponseTime
            channel={e.channel}
            testing={h.testingId === e.channel.id}
            onTest={() => h.onTest(e.channel.id)}
          />
        ),
    },
    {
      key: 'balance',
      accessor: 'balance',
      title: t({ message: 'Balance', context: 'channel' }),
      phone: 'field',
      render: (e) => (e.kind === 'tag' ? dash : <BalanceCell channel={e.channel} />),
    },
    {
      key: 'groups',
      accessor: 'group',
      title: t`Groups`,
      render: (e) => <GroupBadges groups={e.kind === 'tag' ? unionGroups(e.channels) : splitCsv(e.channel.group)} />,
    },
    {
      key: 'priority',
      accessor: 'priority',
      title: t`Priority`,
      render: (e) => {
        const { value, mixed } = e.kind === 'tag' ? spread(e.channels, 'priority') : { value: e.channel.priority };
        const save = (priority: number) =>
          e.kind === 'tag' ? h.onPatchTag(e.tag, { priority }) : h.onPatch(e.channel.id, { priority });
        return (
          <div onClick={(ev) => ev.stopPropagation()}>
            <InlineNumber value={value} mixed={mixed} min={-999} label={t`Priority`} onSave={save} />
          </div>
        );
      },
    },
    {
      key: 'weight',
      accessor: 'weight',
      title: t`Weight`,
      render: (e) => {
        const { value, mixed } = e.kind === 'tag' ? spread(e.channels, 'weight') : { value: e.channel.weight };
        const save = (weight: number) =>
          e.kind === 'tag' ? h.onPatchTag(e.tag, { weight }) : h.onPatch(e.channel.id, { weight });
        return (
          <div onClick={(ev) => ev.stopPropagation()}>
            <InlineNumber value={value} mixed={mixed} min={0} label={t`Weight`} onSave={save} />
          </div>
        );
      },
    },
    {
      key: 'used',
      accessor: 'used_quota',
      title: t`Used quota`,
      textAlign: 'right',
      render: (e) => (
        <span style={num}>
          {/* At whole cents beside the balance column, the exact amount on hover (issue 45). */}
          <Money quota={e.kind === 'tag' ? e.channels.reduce((s, c) => s + c.used_quota, 0) : e.channel.used_quota} />
        </span>
      ),
    },
    {
      key: 'actions',
      accessor: 'actions',
      title: '',
      phone: 'actions',
      textAlign: 'right',
      render: (e) =>
        e.kind === 'tag' ? (
          <TagActions tag={e.tag} onEdit={() => h.onEditTag(e.tag)} />
        ) : (
          <RowActions
            channel={e.channel}
            testing={h.testingId === e.channel.id}
            onEdit={() => h.onEdit(e.channel)}
            onTest={() => h.onTest(e.channel.id)}
            onPickModel={() => h.onPickModel(e.channel)}
          />
        ),
    },
  ];
  return cols.filter((c) => c.key === 'actions' || visible[c.key]).map(({ key: _key, ...c }) => c);
}
