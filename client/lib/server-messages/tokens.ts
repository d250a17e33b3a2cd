import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { tokensMessages } from '../../../shared/server-messages/tokens.ts';

/** Tokens (server/domains/tokens/): in English. Joined by client/lib/server-messages.ts. */
export const tokensDescriptors: Record<keyof typeof tokensMessages, MessageDescriptor> = {
  'token.name_too_long': msg({ context: 'token.name_too_long', message: 'The token name is too long' }),
  'token.expiry_invalid': msg({ context: 'token.expiry_invalid', message: 'Invalid expiry time' }),
  'token.ip_list_invalid': msg({ context: 'token.ip_list_invalid', message: 'Invalid IP allow-list' }),
  'token.count_range': msg({
    context: 'token.count_range',
    message: 'The number of tokens to create must be between 1 and 100',
  }),
  'token.not_found': msg({ context: 'token.not_found', message: 'The token does not exist' }),
  'token.group_forbidden': msg({ context: 'token.group_forbidden', message: 'You may not use this group' }),
  'token.expired_cannot_enable': msg({
    context: 'token.expired_cannot_enable',
    message: 'The token has expired and cannot be enabled; change its expiry time first, or make it never expire',
  }),
  'token.exhausted_cannot_enable': msg({
    context: 'token.exhausted_cannot_enable',
    message:
      'The token has used up its quota and cannot be enabled; change its remaining quota first, or make it unlimited',
  }),
  'token.period_not_integer': msg({
    context: 'token.period_not_integer',
    message: 'The rate-limit period must be an integer',
  }),
  'token.period_min': msg({ context: 'token.period_min', message: 'The rate-limit period is at least 1 second' }),
  'token.count_not_integer': msg({
    context: 'token.count_not_integer',
    message: 'The request count must be an integer',
  }),
  'token.count_negative': msg({ context: 'token.count_negative', message: 'The request count cannot be negative' }),
  'token.success_not_integer': msg({
    context: 'token.success_not_integer',
    message: 'The success count must be an integer',
  }),
  'token.success_negative': msg({ context: 'token.success_negative', message: 'The success count cannot be negative' }),
  'token.status_one_or_two': msg({ context: 'token.status_one_or_two', message: 'The status can only be 1 or 2' }),
  'token.generate_failed': msg({
    context: 'token.generate_failed',
    message: 'Generating the token failed, please try again',
  }),
};
