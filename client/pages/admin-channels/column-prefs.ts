import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useState } from 'react';
import { readJson, writeJson } from '../../lib/storage.ts';

/** Local-storage key of the channel table's column choice. */
export const CHANNEL_COLUMNS_KEY = 'channels-table-columns';

export const channelColumns = [
  { key: 'id', label: msg`ID` },
  { key: 'name', label: msg`Name` },
  { key: 'type', label: msg`Type` },
  { key: 'status', label: msg`Status` },
  { key: 'response', label: msg`Response time` },
  { key: 'balance', label: msg({ message: 'Balance', context: 'channel' }) },
  { key: 'groups', label: msg`Groups` },
  { key: 'priority', label: msg`Priority` },
  { key: 'weight', label: msg`Weight` },
  { key: 'used', label: msg`Used quota` },
] as const satisfies readonly { key: string; label: MessageDescriptor }[];

export type ChannelColumnKey = (typeof channelColumns)[number]['key'];
export type ColumnVisibility = Record<ChannelColumnKey, boolean>;

export const allVisible = (): ColumnVisibility =>
  Object.fromEntries(channelColumns.map((c) => [c.key, true])) as ColumnVisibility;

export function useColumnVisibility(): [ColumnVisibility, (v: ColumnVisibility) => void] {
  const [value, setValue] = useState<ColumnVisibility>(() => ({
    ...allVisible(),
    ...(readJson<Partial<ColumnVisibility>>(CHANNEL_COLUMNS_KEY) ?? {}),
  }));
  const save = (next: ColumnVisibility) => {
    setValue(next);
    writeJson(CHANNEL_COLUMNS_KEY, next);
  };
  return [value, save];
}
