import { useCallback, useState } from 'react';
import { isActivePath, type VisibleNavSection } from './nav.ts';

export interface Submenus {
  /** Keys of the open submenus. */
  open: ReadonlySet<string>;
  toggle: (key: string) => void;
  /** Some submenu on show is open (the sidebar then takes its wider size). */
  anyOpen: boolean;
}

/**
 * Which sidebar submenus are open. The one holding the current page opens by itself each time
 * one of its entries is reached (a chat link opens Chat); any may be opened or closed by a
 * click, and stays so until the next such page. Shared by the desktop sidebar and the mobile drawer.
 */
export function useSubmenus(sections: VisibleNavSection[], pathname: string): Submenus {
  const submenus = sections.flatMap((s) => s.items).filter((i) => i.entries);
  let current: { key: string; entry: string } | null = null;
  for (const item of submenus) {
    const entry = item.entries?.find((e) => isActivePath(pathname, e.path));
    if (entry) current = { key: item.key, entry: entry.path };
  }
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(current ? [current.key] : []));
  const [reached, setReached] = useState(current?.entry ?? null);
  if ((current?.entry ?? null) !== reached) {
    // Adjusted while rendering (not in an effect), so the width never flashes narrow first.
    setReached(current?.entry ?? null);
    if (current && !open.has(current.key)) setOpen(new Set(open).add(current.key));
  }
  const toggle = useCallback(
    (key: string) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  return { open, toggle, anyOpen: submenus.some((i) => open.has(i.key)) };
}
