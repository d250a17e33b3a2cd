import { Text, type TextProps, Tooltip } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

export interface CellTextProps extends Omit<TextProps, 'children' | 'truncate' | 'lineClamp'> {
  /** The whole text; the cell shows what fits of it. */
  children: string;
  /** The widest the cell may grow, in px: the table keeps its width whatever the text (default 220). */
  maxWidth?: number;
  /** Lines shown before the "…" (default 1). */
  lines?: number;
  /** false inside something whose own tooltip already shows the whole text (the channel test's badge). */
  withTooltip?: boolean;
  'data-testid'?: string;
}

/**
 * Long free text in a table cell (a failed test's reason, an error, a prompt, a task's failure): cut to
 * `lines` lines of at most `maxWidth` px with "…", the whole text on hover or keyboard focus (issue 45:
 * a long upstream error widened the channel table at 1366 px until its headers wrapped and it scrolled
 * sideways). The tooltip appears only when something was cut (measured whenever the cell's size
 * changes); the cell keeps the whole text, so a screen reader reads all of it.
 */
export function CellText({ children, maxWidth = 220, lines = 1, withTooltip = true, ...rest }: CellTextProps) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [cut, setCut] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setCut(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [children, maxWidth, lines]);
  return (
    <Tooltip
      label={children}
      disabled={!cut || !withTooltip}
      multiline
      maw={420}
      withinPortal
      openDelay={150}
      events={{ hover: true, focus: true, touch: true }}
      styles={{ tooltip: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } }}
    >
      <Text
        size="sm"
        {...rest}
        ref={ref}
        maw={maxWidth}
        // Reachable by keyboard only when there is more to read.
        tabIndex={cut && withTooltip ? 0 : undefined}
        data-cut={cut || undefined}
        // One line: nowrap + ellipsis. More: the browser's line clamp, breaking long words (URLs, keys).
        style={
          lines === 1
            ? { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }
            : {
                whiteSpace: 'normal',
                wordBreak: 'break-word',
                display: '-webkit-box',
                WebkitLineClamp: lines,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
              }
        }
      >
        {children}
      </Text>
    </Tooltip>
  );
}
