import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useState } from 'react';
import { readJson, writeJson } from '../../lib/storage.ts';

/** Local-storage key of the column preferences (spec §2.5). */
export const COLUMNS_KEY = 'logs-table-columns';

export const logColumns = [
  { key: 'time', label: msg`Time` },
  { key: 'channel', label: msg`Channel`, adminOnly: true },
  { key: 'username', label: msg`User`, adminOnly: true },
  { key: 'token', label: msg`Token` },
  { key: 'group', label: msg`Group` },
  { key: 'type', label: msg`Type` },
  { key: 'model', label: msg`Model` },
  { key: 'use_time', label: msg`Time taken / first token` },
  { key: 'prompt', label: msg`Prompt tokens` },
  { key: 'completion', label: msg`Completion tokens` },
  { key: 'quota', label: msg`Cost` },
  { key: 'retry', label: msg`Retry`, adminOnly: true },
  { key: 'details', label: msg`Details` },
] as const satisfies readonly { key: string; label: MessageDescriptor; adminOnly?: boolean }[];

export type LogColumnKey = (typeof logColumns)[number]['key'];
export type ColumnVisibility = Record<LogColumnKey, boolean>;

/** Defaults: everything, except that channel, user and retry are for admins only. */
export function defaultVisibility(admin: boolean): ColumnVisibility {
  return Object.fromEntries(
    logColumns.map((c) => [c.key, admin || !('adminOnly' in c && c.adminOnly)]),
  ) as ColumnVisibility;
}

/** The columns this user may choose from: admin-only ones never show for others, whatever is stored. */
export const availableColumns = (admin: boolean) => logColumns.filter((c) => admin || !('adminOnly' in c));

export function useColumnVisibility(admin: boolean): [ColumnVisibility, (v: ColumnVisibility) => void] {
  const [value, setValue] = useState<ColumnVisibility>(() => ({
    ...defaultVisibility(admin),
    ...(readJson<Partial<ColumnVisibility>>(COLUMNS_KEY) ?? {}),
  }));
  const effective = admin ? value : { ...value, channel: false, username: false, retry: false };
  const save = (next: ColumnVisibility) => {
    setValue(next);
    writeJson(COLUMNS_KEY, next);
  };
  return [effective, save];
}
