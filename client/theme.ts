import { Badge, createTheme, localStorageColorSchemeManager, Switch } from '@mantine/core';
import { StorageKey } from './lib/storage.ts';

const fontFamily =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    // A dot in the thumb made a switched-off toggle on a dark card read as a radio button (issue 31);
    // global.css also gives the off track a visible colour in dark mode.
    Switch: Switch.extend({ defaultProps: { withThumbIndicator: false } }),
    // Mantine's gray dot is gray's dark shade, invisible on the dark badge (the "default" group badge).
    Badge: Badge.extend({
      vars: (_theme, props) =>
        props.variant === 'dot' && (props.color === undefined || props.color === 'gray')
          ? { root: { '--badge-dot-color': 'var(--mantine-color-gray-5)' } }
          : { root: {} },
    }),
  },
});

/** The dark/light choice is kept under `theme-mode` (spec console-screens §3). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKey.themeMode });
