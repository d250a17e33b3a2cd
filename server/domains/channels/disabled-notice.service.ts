import type { Logger } from 'pino';
import { scrubSecrets } from '../../../shared/scrub-secrets.ts';
import type { MessagesService } from '../messages/messages.service.ts';

/**
 * relay.md §4: root hears about an auto-disabled channel, in the console inbox,
 * whoever disabled it (a failing relay request or a failed scheduled test). Never
 * throws: a lost notice must not undo or fail the disabling.
 */
export async function noticeChannelDisabled(
  deps: { messages: MessagesService; log: Logger },
  channel: { id: number; name: string },
  reason: string,
  at: number,
): Promise<void> {
  try {
    const who = { name: channel.name, id: channel.id };
    await deps.messages.toRoot({
      title: { code: 'notice.channel_disabled_title', params: who },
      content: {
        code: 'notice.channel_disabled',
        // Masked again here, the last door before root's inbox (issue 39).
        params: { ...who, time: new Date(at * 1000).toISOString(), reason: scrubSecrets(reason).slice(0, 500) },
      },
    });
  } catch (err) {
    deps.log.error({ err, channelId: channel.id }, 'could not notify root of a disabled channel');
  }
}
