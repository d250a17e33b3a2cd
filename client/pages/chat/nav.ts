import { msg } from '@lingui/core/macro';
import { IconMessages } from '@tabler/icons-react';
import type { NavItem } from '../../layout/nav.ts';
import { listChatLinks } from '../../lib/chat-link.ts';

/**
 * The sidebar's Chat submenu (spec §2.15): one entry per saved chat link, each opening that
 * client in the console's chat page (/app/chat/{index}, §2.2), beside the sidebar. Without
 * saved links there is no submenu. Its label lives in the chat catalog.
 */
export const chatNavItem: NavItem = {
  key: 'chat',
  label: msg`Chat`,
  path: '/app/chat',
  icon: IconMessages,
  entries: ({ status }) =>
    listChatLinks(status.chats).map(({ index, name }) => ({
      key: `chat-${index}`,
      label: name,
      path: `/app/chat/${index}`,
    })),
};
