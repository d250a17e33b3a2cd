import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The address rules of a verification mail (api-contract §9): a sane format,
 * the domain whitelist when EmailDomainRestrictionEnabled, and, when
 * EmailAliasRestrictionEnabled, no "+tag" aliases anywhere and no dots in
 * Gmail local parts (Gmail ignores them, so one inbox could claim many
 * sign-up bonuses).
 */
export function assertAllowedEmail(options: OptionsService, raw: string): string {
  const email = raw.trim();
  if (!EMAIL_FORMAT.test(email) || email.length > 50) throw badRequest('mail.invalid_address');
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (options.get('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .get('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    if (!allowed.includes(domain)) throw badRequest('mail.domain_not_allowed');
  }
  if (options.get('EmailAliasRestrictionEnabled')) {
    if (local.includes('+') || (GMAIL_DOMAINS.has(domain) && local.includes('.')))
      throw badRequest('mail.alias_not_allowed');
  }
  return email;
}
