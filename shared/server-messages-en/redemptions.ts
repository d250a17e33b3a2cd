import type { redemptionsMessages } from '../server-messages/redemptions.ts';

/**
 * Redemption codes: redeeming one and managing them (server/domains/redemptions/): in English. Joined by shared/server-messages-en.ts.
 */
export const redemptionsEnglish: Record<keyof typeof redemptionsMessages, string> = {
  'redeem.enter_code': 'Enter the redemption code',
  'redeem.invalid': 'Invalid redemption code',
  'redeem.used': 'This redemption code has already been used',
  'redeem.gift_already_used': 'You have already used this redemption code',
  'redeem.too_many_guesses': 'Too many wrong redemption codes, please try again later',
  'redeem.not_yet_valid': 'This redemption code is not valid yet',
  'redeem.expired': 'This redemption code has expired',
  'redemption.not_found': 'The redemption code does not exist',
  'redemption.key_taken': 'This redemption code already exists',
  'redemption.edit_unused_only': 'Only unused redemption codes can be edited',
  'redemption.used_no_status': 'This redemption code has been used; its status cannot change',
  'redemption.name_length': 'The name must be 1 to 20 characters long',
  'redemption.batch_max': 'At most 100 redemption codes can be generated at once',
  'redemption.validity_order': 'The start time must be earlier than the expiry time',
  'redemption.quota_positive': 'The quota must be greater than 0',
  'redemption.max_uses_not_integer': 'The maximum number of uses must be an integer',
  'redemption.max_uses_range': 'The maximum number of uses must be -1 (unlimited) or a positive integer',
  'redemption.count_not_integer': 'The number of codes must be an integer',
  'redemption.count_positive': 'The number of codes must be greater than 0',
  'redemption.key_too_long': 'A custom code cannot be longer than 64 characters',
  'redemption.key_charset': 'A custom code may contain only letters, digits, underscores and hyphens',
  'redemption.key_single': 'A custom code can only be generated one at a time',
  'redemption.select_one': 'Select at least one redemption code',
  'redemption.enter_name': 'Enter the name of the redemption code',
};
