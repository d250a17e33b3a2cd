import { Badge, type BadgeProps, type ElementProps } from '@mantine/core';
import { forwardRef } from 'react';

type Props = Omit<BadgeProps, 'variant' | 'leftSection'> &
  ElementProps<'div', keyof BadgeProps> & {
    /** Mantine colour of the dot: teal on, gray off, red refused, orange/yellow attention. */
    color: string;
  };

/**
 * A state, never an action (issue 45): a coloured dot and the word in the page's text colour, with no
 * fill or border, so "开启", "已启用" or "已封禁" beside a row's buttons is not taken for one. Every
 * page's status badges use it. Still a Mantine Badge underneath (tooltips attach to it, tests find
 * `.mantine-Badge-root`); forwards its ref for Tooltip.
 */
export const StatusDot = forwardRef<HTMLDivElement, Props>(function StatusDot({ color, ...rest }, ref) {
  return (
    <Badge
      ref={ref}
      variant="transparent"
      color={color}
      tt="none"
      fw={500}
      px={0}
      data-status-dot={color}
      leftSection={
        <span
          aria-hidden
          style={{
            display: 'inline-block',
            width: 8,
            height: 8,
            borderRadius: '50%',
            // Gray's filled shade all but disappears on a dark card; shade 5 reads on both themes.
            background: color === 'gray' ? 'var(--mantine-color-gray-5)' : `var(--mantine-color-${color}-filled)`,
          }}
        />
      }
      c="var(--mantine-color-text)"
      fz="sm"
      {...rest}
    />
  );
});
