import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { userSettingsMessages } from '../../../shared/server-messages/user-settings.ts';

/**
 * Personal notification settings (server/domains/user-settings/, shared/schemas/user-setting.ts): in English.
 * Joined by client/lib/server-messages.ts.
 */
export const userSettingsDescriptors: Record<keyof typeof userSettingsMessages, MessageDescriptor> = {
  'notify.webhook_https': msg({
    context: 'notify.webhook_https',
    message: 'The webhook address must start with https://',
  }),
  'notify.type': msg({ context: 'notify.type', message: 'The notification method can only be email or webhook' }),
  'notify.threshold_not_number': msg({
    context: 'notify.threshold_not_number',
    message: 'The warning threshold must be a number',
  }),
  'notify.threshold_positive': msg({
    context: 'notify.threshold_positive',
    message: 'The warning threshold must be greater than 0',
  }),
  'notify.webhook_too_long': msg({ context: 'notify.webhook_too_long', message: 'The webhook address is too long' }),
  'notify.secret_too_long': msg({ context: 'notify.secret_too_long', message: 'The webhook secret is too long' }),
  'notify.email_format': msg({
    context: 'notify.email_format',
    message: 'The notification e-mail address is not valid',
  }),
};
