import type { affiliateMessages } from '../server-messages/affiliate.ts';

/**
 * Invitations: the affiliate quota transfer (server/domains/affiliate/): in English. Joined by shared/server-messages-en.ts.
 */
export const affiliateEnglish: Record<keyof typeof affiliateMessages, string> = {
  'aff.transfer_min': 'The smallest transfer is {amount}',
  'aff.quota_insufficient': 'Not enough invitation quota',
  'aff.amount_not_integer': 'The amount to transfer must be an integer',
  'aff.transferred': 'Transferred',
};
