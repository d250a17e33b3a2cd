import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { checkinMessages } from '../../../shared/server-messages/checkin.ts';

/** Check-in (server/domains/checkin/): in English. Joined by client/lib/server-messages.ts. */
export const checkinDescriptors: Record<keyof typeof checkinMessages, MessageDescriptor> = {
  'checkin.disabled': msg({ context: 'checkin.disabled', message: 'Check-in is not turned on' }),
  'checkin.already': msg({
    context: 'checkin.already',
    message: 'You have already checked in today, come back tomorrow',
  }),
  'checkin.done': msg({ context: 'checkin.done', message: 'Checked in' }),
};
