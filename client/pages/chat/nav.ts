import { msg } from '@lingui/core/macro';
import { IconMessages } from '@tabler/icons-react';
import type { NavItem } from '../../layout/nav.ts';

/**
 * The sidebar entry for the configured chat clients (spec §2.15); shown once the
 * operator has saved at least one chat link. Its label lives in the chat catalog.
 */
export const chatNavItem: NavItem = {
  key: 'chat',
  label: msg`Chat`,
  path: '/chat/0',
  icon: IconMessages,
  visible: ({ status }) => Array.isArray(status.chats) && status.chats.length > 0,
};
