import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import type { Status } from '../../lib/status.ts';
import { CheckInCard } from './settings/CheckInCard.tsx';
import { NotificationSettings } from './settings/NotificationSettings.tsx';
import { OtherSettings, PriceSettings } from './settings/PreferenceSettings.tsx';

/**
 * Extension points of the personal settings page. The settings engineer fills these:
 * give a tab its component (it then appears), or add a card beside "Available models"
 * (check-in). Components fetch their own data.
 */
export interface SettingsTab {
  key: string;
  label: MessageDescriptor;
  component: ComponentType | null;
}

export const settingsTabs: SettingsTab[] = [
  { key: 'notification', label: msg`Notification settings`, component: NotificationSettings },
  { key: 'price', label: msg`Price settings`, component: PriceSettings },
  { key: 'other', label: msg`Other settings`, component: OtherSettings },
];

export interface SideCard {
  key: string;
  component: ComponentType;
  visible?: (status: Status) => boolean;
}

/** Cards in the left column under the models and invite cards, e.g. `{ key: 'check-in', component: CheckInCard, visible: (s) => s.check_in_enabled }`. */
export const sideCards: SideCard[] = [{ key: 'check-in', component: CheckInCard, visible: (s) => s.check_in_enabled }];
