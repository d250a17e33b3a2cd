import { msg } from '@lingui/core/macro';
import { IconInbox } from '@tabler/icons-react';

/** The sidebar entry for the inbox; its label lives in the inbox catalog, not the shell's. */
export const inboxNavItem = { key: 'inbox', label: msg`Inbox`, path: '/app/inbox', icon: IconInbox };
