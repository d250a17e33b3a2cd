import type { checkinMessages } from '../server-messages/checkin.ts';

/** Check-in (server/domains/checkin/): in English. Joined by shared/server-messages-en.ts. */
export const checkinEnglish: Record<keyof typeof checkinMessages, string> = {
  'checkin.disabled': 'Check-in is not turned on',
  'checkin.already': 'You have already checked in today, come back tomorrow',
  'checkin.done': 'Checked in',
};
