import type { userSettingsMessages } from '../server-messages/user-settings.ts';

/**
 * Personal notification settings (server/domains/user-settings/, shared/schemas/user-setting.ts): in English.
 * Joined by shared/server-messages-en.ts.
 */
export const userSettingsEnglish: Record<keyof typeof userSettingsMessages, string> = {
  'notify.webhook_https': 'The webhook address must start with https://',
  'notify.type': 'The notification method can only be email or webhook',
  'notify.threshold_not_number': 'The warning threshold must be a number',
  'notify.threshold_positive': 'The warning threshold must be greater than 0',
  'notify.webhook_too_long': 'The webhook address is too long',
  'notify.secret_too_long': 'The webhook secret is too long',
  'notify.email_format': 'The notification e-mail address is not valid',
};
