import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '../../shared/constants.ts';
import { readString, StorageKey, writeString } from '../lib/storage.ts';

export const pageSizeOptions: number[] = [...PAGE_SIZE_OPTIONS];

/** The remembered page size (read by the first-screen queries too, before a page's code has loaded). */
export function readPageSize(key: string = StorageKey.pageSize): number {
  const n = Number(readString(key));
  return pageSizeOptions.includes(n) ? n : DEFAULT_PAGE_SIZE;
}

/** Page size remembered in local storage (`page-size` unless a page has its own key). */
export function usePageSize(key: string = StorageKey.pageSize): [number, (size: number) => void] {
  const [size, setSize] = useState(() => readPageSize(key));
  const update = (next: number) => {
    setSize(next);
    writeString(key, String(next));
  };
  return [size, update];
}
