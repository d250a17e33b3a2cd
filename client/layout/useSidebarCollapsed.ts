import { useState } from 'react';
import { readString, StorageKey, writeString } from '../lib/storage.ts';

/** The sidebar's collapsed state, remembered under `default_collapse_sidebar`. */
export function useSidebarCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => readString(StorageKey.collapseSidebar) === 'true');
  const toggle = () =>
    setCollapsed((c) => {
      writeString(StorageKey.collapseSidebar, String(!c));
      return !c;
    });
  return [collapsed, toggle];
}

export const SIDEBAR_WIDTH = { collapsed: 60, expanded: 200, chat: 240 } as const;

/** Spec §2.15: 60 collapsed, 200 expanded, 240 while the Chat submenu is open (its entries sit indented). */
export function sidebarWidth(collapsed: boolean, submenuOpen: boolean): number {
  if (collapsed) return SIDEBAR_WIDTH.collapsed;
  return submenuOpen ? SIDEBAR_WIDTH.chat : SIDEBAR_WIDTH.expanded;
}
