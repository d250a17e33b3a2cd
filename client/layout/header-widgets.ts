import type { ComponentType } from 'react';
import { InboxBell } from '../pages/inbox/InboxBell.tsx';

/**
 * Extra controls in the top bar, left of the theme toggle. The inbox bell registers
 * here (`{ key: 'inbox', component: InboxBell, signedInOnly: true }`), so the top bar
 * does not need to know about messages.
 */
export interface HeaderWidget {
  key: string;
  component: ComponentType;
  signedInOnly?: boolean;
}

export const headerWidgets: HeaderWidget[] = [{ key: 'inbox', component: InboxBell, signedInOnly: true }];
