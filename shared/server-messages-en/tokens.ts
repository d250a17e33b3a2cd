import type { tokensMessages } from '../server-messages/tokens.ts';

/** Tokens (server/domains/tokens/): in English. Joined by shared/server-messages-en.ts. */
export const tokensEnglish: Record<keyof typeof tokensMessages, string> = {
  'token.name_too_long': 'The token name is too long',
  'token.expiry_invalid': 'Invalid expiry time',
  'token.ip_list_invalid': 'Invalid IP allow-list',
  'token.count_range': 'The number of tokens to create must be between 1 and 100',
  'token.not_found': 'The token does not exist',
  'token.group_forbidden': 'You may not use this group',
  'token.expired_cannot_enable':
    'The token has expired and cannot be enabled; change its expiry time first, or make it never expire',
  'token.exhausted_cannot_enable':
    'The token has used up its quota and cannot be enabled; change its remaining quota first, or make it unlimited',
  'token.period_not_integer': 'The rate-limit period must be an integer',
  'token.period_min': 'The rate-limit period is at least 1 second',
  'token.count_not_integer': 'The request count must be an integer',
  'token.count_negative': 'The request count cannot be negative',
  'token.success_not_integer': 'The success count must be an integer',
  'token.success_negative': 'The success count cannot be negative',
  'token.status_one_or_two': 'The status can only be 1 or 2',
  'token.generate_failed': 'Generating the token failed, please try again',
};
