import { createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { StorageKey } from './lib/storage.ts';

const fontFamily =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '650' },
  cursorType: 'pointer',
});

/** The dark/light choice is kept under `theme-mode` (spec console-screens §3). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKey.themeMode });
