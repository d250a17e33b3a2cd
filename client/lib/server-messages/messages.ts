import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { messagesMessages } from '../../../shared/server-messages/messages.ts';

/** Messages: inbox and admin (server/domains/messages/): in English. Joined by client/lib/server-messages.ts. */
export const messagesDescriptors: Record<keyof typeof messagesMessages, MessageDescriptor> = {
  'message.not_found': msg({ context: 'message.not_found', message: 'The message does not exist' }),
  'message.enter_title': msg({ context: 'message.enter_title', message: 'Enter the message title' }),
  'message.enter_content': msg({ context: 'message.enter_content', message: 'Enter the message content' }),
  'message.select_recipient': msg({ context: 'message.select_recipient', message: 'Select at least one recipient' }),
  'message.recipients_missing': msg({
    context: 'message.recipients_missing',
    message: 'These recipients do not exist: {ids}',
  }),
  'message.format_invalid': msg({
    context: 'message.format_invalid',
    message: 'The format can only be markdown or html',
  }),
};
