import { Trans } from '@lingui/react/macro';
import { IconArrowsHorizontal } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import classes from './ScrollCue.module.css';

interface Cue {
  left: boolean;
  right: boolean;
  /** Where the scrolling part lies inside the wrapper, and the width of a pinned last column. */
  top: number;
  height: number;
  inset: number;
  rightInset: number;
}

const none: Cue = { left: false, right: false, top: 0, height: 0, inset: 0, rightInset: 0 };

/** The element that scrolls sideways: the table's Mantine scroll area (mantine-datatable's). */
const scrollerIn = (root: HTMLElement) => root.querySelector<HTMLElement>('.mantine-ScrollArea-viewport');

function measure(root: HTMLElement, scroller: HTMLElement | null): Cue {
  if (!scroller || scroller.scrollWidth <= scroller.clientWidth + 1) return none;
  const box = root.getBoundingClientRect();
  const r = scroller.getBoundingClientRect();
  // A pinned actions column (mantine-datatable's pinLastColumn) stays put: the shadow goes left of it.
  const last = scroller.querySelector<HTMLElement>('thead tr th:last-child');
  const pinned = last && getComputedStyle(last).position === 'sticky' ? last.getBoundingClientRect().width : 0;
  const end = scroller.scrollWidth - scroller.clientWidth;
  return {
    left: scroller.scrollLeft > 1,
    right: scroller.scrollLeft < end - 1,
    top: r.top - box.top,
    height: r.height,
    inset: r.left - box.left,
    rightInset: box.right - r.right + pinned,
  };
}

/**
 * Wraps a table that may be wider than the screen (issue 45: at 390 px the price editor showed two
 * of its columns with nothing saying there were more). While it overflows, a line above it says it
 * scrolls sideways, and a shadow marks each edge that has columns beyond it; both go when the table
 * fits. Watches the scroller's scrolling and size, and the wrapper's content (rows load, a phone's
 * cards replace the table).
 */
export function ScrollCue({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [cue, setCue] = useState<Cue>(none);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    let scroller: HTMLElement | null = null;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const next = measure(root, scroller);
        setCue((c) =>
          (Object.keys(next) as (keyof Cue)[]).every((k) => Math.abs(Number(c[k]) - Number(next[k])) < 1) ? c : next,
        );
      });
    };
    const sizes = new ResizeObserver(update);
    const bind = () => {
      const found = scrollerIn(root);
      if (found !== scroller) {
        scroller?.removeEventListener('scroll', update);
        sizes.disconnect();
        scroller = found;
        scroller?.addEventListener('scroll', update, { passive: true });
        if (scroller) {
          sizes.observe(scroller);
          if (scroller.firstElementChild) sizes.observe(scroller.firstElementChild);
        }
        sizes.observe(root);
      }
      update();
    };
    const content = new MutationObserver(bind);
    content.observe(root, { childList: true, subtree: true });
    bind();
    return () => {
      cancelAnimationFrame(frame);
      content.disconnect();
      sizes.disconnect();
      scroller?.removeEventListener('scroll', update);
    };
  }, []);

  const overflows = cue.left || cue.right;
  return (
    <div ref={ref} className={classes.root} data-scrolls={overflows || undefined}>
      {overflows && (
        <div className={classes.hint} data-testid="scroll-cue">
          <IconArrowsHorizontal size={14} aria-hidden />
          <Trans>Scroll sideways for more columns</Trans>
        </div>
      )}
      {children}
      {cue.left && (
        <div
          className={`${classes.edge} ${classes.left}`}
          style={{ top: cue.top, height: cue.height, left: cue.inset }}
          data-testid="scroll-cue-left"
        />
      )}
      {cue.right && (
        <div
          className={`${classes.edge} ${classes.right}`}
          style={{ top: cue.top, height: cue.height, right: cue.rightInset }}
          data-testid="scroll-cue-right"
        />
      )}
    </div>
  );
}
