import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { redemptionsMessages } from '../../../shared/server-messages/redemptions.ts';

/**
 * Redemption codes: redeeming one and managing them (server/domains/redemptions/): in English. Joined by
 * client/lib/server-messages.ts.
 */
export const redemptionsDescriptors: Record<keyof typeof redemptionsMessages, MessageDescriptor> = {
  'redeem.enter_code': msg({ context: 'redeem.enter_code', message: 'Enter the redemption code' }),
  'redeem.invalid': msg({ context: 'redeem.invalid', message: 'Invalid redemption code' }),
  'redeem.used': msg({ context: 'redeem.used', message: 'This redemption code has already been used' }),
  'redeem.gift_already_used': msg({
    context: 'redeem.gift_already_used',
    message: 'You have already used this redemption code',
  }),
  'redeem.too_many_guesses': msg({
    context: 'redeem.too_many_guesses',
    message: 'Too many wrong redemption codes, please try again later',
  }),
  'redeem.not_yet_valid': msg({ context: 'redeem.not_yet_valid', message: 'This redemption code is not valid yet' }),
  'redeem.expired': msg({ context: 'redeem.expired', message: 'This redemption code has expired' }),
  'redemption.not_found': msg({ context: 'redemption.not_found', message: 'The redemption code does not exist' }),
  'redemption.key_taken': msg({ context: 'redemption.key_taken', message: 'This redemption code already exists' }),
  'redemption.edit_unused_only': msg({
    context: 'redemption.edit_unused_only',
    message: 'Only unused redemption codes can be edited',
  }),
  'redemption.used_no_status': msg({
    context: 'redemption.used_no_status',
    message: 'This redemption code has been used; its status cannot change',
  }),
  'redemption.name_length': msg({
    context: 'redemption.name_length',
    message: 'The name must be 1 to 20 characters long',
  }),
  'redemption.batch_max': msg({
    context: 'redemption.batch_max',
    message: 'At most 100 redemption codes can be generated at once',
  }),
  'redemption.validity_order': msg({
    context: 'redemption.validity_order',
    message: 'The start time must be earlier than the expiry time',
  }),
  'redemption.quota_positive': msg({
    context: 'redemption.quota_positive',
    message: 'The quota must be greater than 0',
  }),
  'redemption.max_uses_not_integer': msg({
    context: 'redemption.max_uses_not_integer',
    message: 'The maximum number of uses must be an integer',
  }),
  'redemption.max_uses_range': msg({
    context: 'redemption.max_uses_range',
    message: 'The maximum number of uses must be -1 (unlimited) or a positive integer',
  }),
  'redemption.count_not_integer': msg({
    context: 'redemption.count_not_integer',
    message: 'The number of codes must be an integer',
  }),
  'redemption.count_positive': msg({
    context: 'redemption.count_positive',
    message: 'The number of codes must be greater than 0',
  }),
  'redemption.key_too_long': msg({
    context: 'redemption.key_too_long',
    message: 'A custom code cannot be longer than 64 characters',
  }),
  'redemption.key_charset': msg({
    context: 'redemption.key_charset',
    message: 'A custom code may contain only letters, digits, underscores and hyphens',
  }),
  'redemption.key_single': msg({
    context: 'redemption.key_single',
    message: 'A custom code can only be generated one at a time',
  }),
  'redemption.select_one': msg({ context: 'redemption.select_one', message: 'Select at least one redemption code' }),
  'redemption.enter_name': msg({ context: 'redemption.enter_name', message: 'Enter the name of the redemption code' }),
};
