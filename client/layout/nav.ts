import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  IconBrush,
  IconCategory,
  IconDatabaseImport,
  IconChartHistogram,
  IconFileText,
  IconKey,
  IconListDetails,
  IconMail,
  IconMessageChatbot,
  IconPlugConnected,
  IconReceipt,
  IconSettings,
  IconTicket,
  IconUser,
  IconUsers,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';
import type { Status } from '../lib/status.ts';
import { chatNavItem } from '../pages/chat/nav.ts';
import { inboxNavItem } from '../pages/inbox/nav.ts';
import type { StoredUser } from '../lib/user.ts';
import { userIsAdmin, userIsRoot } from '../lib/user.ts';

/** What decides whether a nav entry shows. */
export interface NavContext {
  status: Status;
  user: StoredUser | null;
}

/** An entry of a submenu: its label is the operator's own name for it (not translated). */
export interface NavEntry {
  key: string;
  label: string;
  path: string;
}

export interface NavItem {
  key: string;
  label: MessageDescriptor;
  /** The link; for a submenu, the prefix its entries' paths share. */
  path: string;
  icon: Icon;
  visible?: (ctx: NavContext) => boolean;
  /** Makes the item a submenu of these entries (built from the status); hidden when there are none. */
  entries?: (ctx: NavContext) => NavEntry[];
}

/** An item as the sidebar draws it: a submenu's entries already built. */
export type VisibleNavItem = Omit<NavItem, 'entries'> & { entries?: NavEntry[] };

export interface VisibleNavSection extends Omit<NavSection, 'items'> {
  items: VisibleNavItem[];
}

export interface NavSection {
  key: string;
  /** Sections without a label render their items at the top. */
  label?: MessageDescriptor;
  visible?: (ctx: NavContext) => boolean;
  items: NavItem[];
}

/**
 * The sidebar (spec console-screens §2.15) as data. To add a page: add its route in
 * routes.tsx and an item here; visibility rules read the status object and the stored user.
 */
export const sidebar: NavSection[] = [
  {
    key: 'top',
    items: [{ key: 'playground', label: msg`Playground`, path: '/playground', icon: IconMessageChatbot }, chatNavItem],
  },
  {
    key: 'console',
    label: msg`Console`,
    items: [
      {
        key: 'dashboard',
        label: msg`Dashboard`,
        path: '/app/dashboard',
        icon: IconChartHistogram,
        visible: ({ status }) => status.enable_data_export,
      },
      { key: 'tokens', label: msg`API tokens`, path: '/app/tokens', icon: IconKey },
      { key: 'logs', label: msg`Usage logs`, path: '/app/logs/api-usage', icon: IconFileText },
      {
        key: 'drawing',
        label: msg`Drawing logs`,
        path: '/app/logs/drawing',
        icon: IconBrush,
        visible: ({ status }) => status.enable_drawing,
      },
      {
        key: 'tasks',
        label: msg`Task logs`,
        path: '/app/logs/tasks',
        icon: IconListDetails,
        visible: ({ status }) => status.enable_task,
      },
    ],
  },
  {
    key: 'admin',
    label: msg`Admin`,
    visible: ({ user }) => userIsAdmin(user),
    items: [
      { key: 'channels', label: msg`Channels`, path: '/admin/channels', icon: IconPlugConnected },
      { key: 'models', label: msg`Model management`, path: '/admin/models', icon: IconCategory },
      { key: 'coupons', label: msg`Redemption codes`, path: '/admin/coupons', icon: IconTicket },
      { key: 'subscriptions', label: msg`Subscription plans`, path: '/admin/subscriptions', icon: IconReceipt },
      { key: 'messages', label: msg`Message management`, path: '/admin/messages', icon: IconMail },
      { key: 'users', label: msg`User management`, path: '/admin/users', icon: IconUsers },
      {
        key: 'settings',
        label: msg`System settings`,
        path: '/admin/settings',
        icon: IconSettings,
        visible: ({ user }) => userIsRoot(user),
      },
      {
        key: 'import',
        label: msg`Import from new-api`,
        path: '/admin/import',
        icon: IconDatabaseImport,
        visible: ({ user }) => userIsRoot(user),
      },
    ],
  },
  {
    key: 'personal',
    label: msg`Personal`,
    items: [
      inboxNavItem,
      { key: 'wallet', label: msg`Wallet`, path: '/app/wallet', icon: IconWallet },
      { key: 'me', label: msg`Personal settings`, path: '/app/me', icon: IconUser },
    ],
  },
];

function visibleItems(items: NavItem[], ctx: NavContext): VisibleNavItem[] {
  return items.flatMap(({ entries, ...item }) => {
    if (item.visible && !item.visible(ctx)) return [];
    if (!entries) return [item];
    const built = entries(ctx);
    return built.length > 0 ? [{ ...item, entries: built }] : [];
  });
}

/** The sidebar's sections and items the current user may see, submenus with their entries. */
export function visibleSidebar(ctx: NavContext): VisibleNavSection[] {
  return sidebar
    .filter((s) => !s.visible || s.visible(ctx))
    .map((s) => ({ ...s, items: visibleItems(s.items, ctx) }))
    .filter((s) => s.items.length > 0);
}

/** Whether a path is the link's page or below it. */
export function isActivePath(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`);
}

export interface TopLink {
  key: string;
  label: MessageDescriptor;
  /** Internal path, or an external URL (opens in a new tab). */
  href: (ctx: NavContext) => string | null;
  external?: boolean;
}

/** Top bar links (spec §2.14); a null href hides the link. */
export const topLinks: TopLink[] = [
  { key: 'home', label: msg`Home`, href: () => '/' },
  {
    key: 'console',
    label: msg`Console`,
    href: ({ status }) => (status.enable_data_export ? '/app/dashboard' : '/app/tokens'),
  },
  { key: 'pricing', label: msg`Pricing`, href: () => '/pricing' },
  { key: 'docs', label: msg`Docs`, href: ({ status }) => status.docs_link || null, external: true },
  { key: 'about', label: msg`About`, href: () => '/about' },
];

/** Paths where the sidebar is hidden (home, chat, setup). */
export function sidebarHidden(pathname: string): boolean {
  return pathname === '/' || pathname === '/setup' || pathname.startsWith('/chat/') || pathname === '/chat';
}
