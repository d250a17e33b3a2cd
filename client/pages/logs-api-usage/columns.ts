import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useState } from 'react';
import { readJson, writeJson } from '../../lib/storage.ts';

/** Local-storage key of the column preferences (spec §2.5). */
export const COLUMNS_KEY = 'logs-table-columns';

/*
 * Every column has a width the table gives it (its cells truncate to it) and a rank: when the
 * table is narrower than the chosen columns, the highest ranks leave the table for the expanded
 * row first. Rank 0 (time, cost) never leaves; details shrinks to its minimum before anything goes.
 */
export const logColumns = [
  { key: 'time', label: msg`Time`, width: 104, rank: 0 },
  { key: 'channel', label: msg`Channel`, adminOnly: true, width: 76, rank: 9 },
  { key: 'username', label: msg`User`, adminOnly: true, width: 132, rank: 4 },
  { key: 'token', label: msg`Token`, width: 124, rank: 5 },
  { key: 'group', label: msg`Group`, width: 96, rank: 10 },
  { key: 'type', label: msg`Type`, width: 120, rank: 7 },
  { key: 'model', label: msg`Model`, width: 200, rank: 1 },
  { key: 'use_time', label: msg`Time taken / first token`, width: 124, rank: 8 },
  { key: 'tokens', label: msg`Tokens (prompt / completion)`, width: 120, rank: 2 },
  { key: 'quota', label: msg`Cost`, width: 112, rank: 0 },
  { key: 'retry', label: msg`Retry`, adminOnly: true, width: 80, rank: 11 },
  { key: 'details', label: msg`Details`, width: 168, rank: 3 },
] as const satisfies readonly {
  key: string;
  label: MessageDescriptor;
  adminOnly?: boolean;
  width: number;
  rank: number;
}[];

export type LogColumnKey = (typeof logColumns)[number]['key'];
export type ColumnVisibility = Record<LogColumnKey, boolean>;

/** The expander column before the others. */
export const EXPANDER_WIDTH = 36;

/**
 * The chosen columns that fit `width` pixels (the rest go to the expanded row), in table order.
 * Each leaves by rank, highest first; time and cost always stay.
 */
export function fitColumns(visible: ColumnVisibility, width: number): { shown: LogColumnKey[]; moved: LogColumnKey[] } {
  const chosen = logColumns.filter((c) => visible[c.key]);
  const byRank = [...chosen].sort((a, b) => b.rank - a.rank);
  const kept = new Set<LogColumnKey>(chosen.map((c) => c.key));
  let used = EXPANDER_WIDTH + chosen.reduce((n, c) => n + c.width, 0);
  for (const c of byRank) {
    if (used <= width || c.rank === 0) break;
    kept.delete(c.key);
    used -= c.width;
  }
  return {
    shown: chosen.filter((c) => kept.has(c.key)).map((c) => c.key),
    moved: chosen.filter((c) => !kept.has(c.key)).map((c) => c.key),
  };
}

/** Defaults: everything, except that channel, user and retry are for admins only. */
export function defaultVisibility(admin: boolean): ColumnVisibility {
  return Object.fromEntries(
    logColumns.map((c) => [c.key, admin || !('adminOnly' in c && c.adminOnly)]),
  ) as ColumnVisibility;
}

/** The columns this user may choose from: admin-only ones never show for others, whatever is stored. */
export const availableColumns = (admin: boolean) => logColumns.filter((c) => admin || !('adminOnly' in c));

export function useColumnVisibility(admin: boolean): [ColumnVisibility, (v: ColumnVisibility) => void] {
  const [value, setValue] = useState<ColumnVisibility>(() => {
    const stored = readJson<Partial<Record<string, boolean>>>(COLUMNS_KEY) ?? {};
    // Prompt and completion were two columns before they became one.
    const tokens = stored.tokens ?? (stored.prompt === undefined ? undefined : stored.prompt || stored.completion);
    const known = Object.fromEntries(
      logColumns.filter((c) => stored[c.key] !== undefined).map((c) => [c.key, stored[c.key]]),
    );
    return { ...defaultVisibility(admin), ...known, ...(tokens === undefined ? {} : { tokens }) };
  });
  const effective = admin ? value : { ...value, channel: false, username: false, retry: false };
  const save = (next: ColumnVisibility) => {
    setValue(next);
    writeJson(COLUMNS_KEY, next);
  };
  return [effective, save];
}
