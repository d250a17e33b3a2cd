import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { mailMessages } from '../../../shared/server-messages/mail.ts';

/**
 * E-mail flows and the mailer (server/domains/mail/, server/domains/auth/mail-flows.service.ts): in English.
 * Joined by client/lib/server-messages.ts.
 */
export const mailDescriptors: Record<keyof typeof mailMessages, MessageDescriptor> = {
  'mail.smtp_unconfigured': msg({ context: 'mail.smtp_unconfigured', message: 'The SMTP server is not configured' }),
  'mail.send_failed': msg({
    context: 'mail.send_failed',
    message: 'Sending the e-mail failed; check the SMTP settings or contact the administrator',
  }),
  'mail.too_frequent': msg({ context: 'mail.too_frequent', message: 'Sent too often, please try again in 30 seconds' }),
  'mail.enter_email': msg({ context: 'mail.enter_email', message: 'Enter your e-mail address' }),
  'mail.enter_code': msg({ context: 'mail.enter_code', message: 'Enter the verification code' }),
  'mail.invalid_address': msg({ context: 'mail.invalid_address', message: 'Invalid e-mail address' }),
  'mail.domain_not_allowed': msg({
    context: 'mail.domain_not_allowed',
    message: 'The administrator allows only some e-mail domains, and yours is not one of them',
  }),
  'mail.alias_not_allowed': msg({
    context: 'mail.alias_not_allowed',
    message:
      'The administrator does not allow e-mail aliases; your address was refused because it contains special characters',
  }),
  'mail.reset_link_invalid': msg({
    context: 'mail.reset_link_invalid',
    message: 'The reset link is invalid or has expired',
  }),
  'mail.code_sent': msg({ context: 'mail.code_sent', message: 'Verification code sent, check your mailbox' }),
  'mail.reset_sent': msg({ context: 'mail.reset_sent', message: 'Reset e-mail sent, check your mailbox' }),
  'mail.bound': msg({ context: 'mail.bound', message: 'E-mail bound' }),
};
