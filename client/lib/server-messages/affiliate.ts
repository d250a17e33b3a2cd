import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { affiliateMessages } from '../../../shared/server-messages/affiliate.ts';

/**
 * Invitations: the affiliate quota transfer (server/domains/affiliate/): in English. Joined by client/lib/server-
 * messages.ts.
 */
export const affiliateDescriptors: Record<keyof typeof affiliateMessages, MessageDescriptor> = {
  'aff.transfer_min': msg({ context: 'aff.transfer_min', message: 'The smallest transfer is {amount}' }),
  'aff.quota_insufficient': msg({ context: 'aff.quota_insufficient', message: 'Not enough invitation quota' }),
  'aff.amount_not_integer': msg({
    context: 'aff.amount_not_integer',
    message: 'The amount to transfer must be an integer',
  }),
  'aff.transferred': msg({ context: 'aff.transferred', message: 'Transferred' }),
};
