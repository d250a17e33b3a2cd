import type { updatesMessages } from '../server-messages/updates.ts';

/**
 * Update check and its notice to root's inbox (server/domains/updates/): in English. Joined by shared/server-messages-en.ts.
 */
export const updatesEnglish: Record<keyof typeof updatesMessages, string> = {
  'notice.update_title': 'A new Switchyard version is out: {version}',
  'notice.update': 'Running {current}, latest release [{latest}]({url}).{notes}',
  'update.no_feed': 'Update checks are not set up on this install',
  'update.http': 'Update check failed: HTTP {status}',
  'update.too_large': 'Update check failed: the answer is too large',
  'update.bad_format': 'Update check failed: the release feed answered in an unknown format',
};
