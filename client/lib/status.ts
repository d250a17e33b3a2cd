import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router.ts';
import { readJson, readString, StorageKey, writeJson, writeString } from './storage.ts';

export type Status = inferRouterOutputs<AppRouter>['status']['get'];

/** Status fields mirrored to their own local-storage keys (spec console-screens §3). */
const mirrored = [
  'system_name',
  'logo',
  'footer_html',
  'quota_per_unit',
  'display_in_currency',
  'enable_drawing',
  'enable_task',
  'enable_data_export',
  'data_export_default_time',
  'mj_notify_enabled',
  'docs_link',
] as const satisfies readonly (keyof Status)[];

export function cachedStatus(): Status | null {
  return readJson<Status>(StorageKey.status);
}

/** Saves the status object and its mirrored keys; the sidebar default only seeds a missing choice. */
export function cacheStatus(status: Status): void {
  writeJson(StorageKey.status, status);
  for (const key of mirrored) writeString(key, String(status[key] ?? ''));
  writeString('chats', JSON.stringify(status.chats ?? []));
  if (readString(StorageKey.collapseSidebar) === null)
    writeString(StorageKey.collapseSidebar, String(status.default_collapse_sidebar));
}
