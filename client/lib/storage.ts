/** Local-storage keys the console shares with new-api's (spec console-screens §3). */
export const StorageKey = {
  status: 'status',
  user: 'user',
  themeMode: 'theme-mode',
  pageSize: 'page-size',
  collapseSidebar: 'default_collapse_sidebar',
} as const;

export function readString(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the console keeps working without persistence.
  }
}

export function readJson<T>(key: string): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}
