import type { messagesMessages } from '../server-messages/messages.ts';

/** Messages: inbox and admin (server/domains/messages/): in English. Joined by shared/server-messages-en.ts. */
export const messagesEnglish: Record<keyof typeof messagesMessages, string> = {
  'message.not_found': 'The message does not exist',
  'message.enter_title': 'Enter the message title',
  'message.enter_content': 'Enter the message content',
  'message.select_recipient': 'Select at least one recipient',
  'message.recipients_missing': 'These recipients do not exist: {ids}',
  'message.format_invalid': 'The format can only be markdown or html',
};
