import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { updatesMessages } from '../../../shared/server-messages/updates.ts';

/**
 * Update check and its notice to root's inbox (server/domains/updates/): in English. Joined by client/lib/server-
 * messages.ts.
 */
export const updatesDescriptors: Record<keyof typeof updatesMessages, MessageDescriptor> = {
  'notice.update_title': msg({ context: 'notice.update_title', message: 'A new Switchyard version is out: {version}' }),
  'notice.update': msg({
    context: 'notice.update',
    message: 'Running {current}, latest release [{latest}]({url}).{notes}',
  }),
  'update.no_feed': msg({
    context: 'update.no_feed',
    message: 'Update checks are not set up on this install',
  }),
  'update.http': msg({ context: 'update.http', message: 'Update check failed: HTTP {status}' }),
  'update.too_large': msg({ context: 'update.too_large', message: 'Update check failed: the answer is too large' }),
  'update.bad_format': msg({
    context: 'update.bad_format',
    message: 'Update check failed: the release feed answered in an unknown format',
  }),
};
