import type { mailMessages } from '../server-messages/mail.ts';

/**
 * E-mail flows and the mailer (server/domains/mail/, server/domains/auth/mail-flows.service.ts): in English.
 * Joined by shared/server-messages-en.ts.
 */
export const mailEnglish: Record<keyof typeof mailMessages, string> = {
  'mail.smtp_unconfigured': 'The SMTP server is not configured',
  'mail.send_failed': 'Sending the e-mail failed; check the SMTP settings or contact the administrator',
  'mail.too_frequent': 'Sent too often, please try again in 30 seconds',
  'mail.enter_email': 'Enter your e-mail address',
  'mail.enter_code': 'Enter the verification code',
  'mail.invalid_address': 'Invalid e-mail address',
  'mail.domain_not_allowed': 'The administrator allows only some e-mail domains, and yours is not one of them',
  'mail.alias_not_allowed':
    'The administrator does not allow e-mail aliases; your address was refused because it contains special characters',
  'mail.reset_link_invalid': 'The reset link is invalid or has expired',
  'mail.code_sent': 'Verification code sent, check your mailbox',
  'mail.reset_sent': 'Reset e-mail sent, check your mailbox',
  'mail.bound': 'E-mail bound',
};
