import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Role } from '../../../shared/constants.ts';
import type { Database } from '../../db/types.ts';
import type { MessagesService } from '../messages/messages.service.ts';

/**
 * relay.md §4: root hears about an auto-disabled channel, in the console inbox,
 * whoever disabled it (a failing relay request or a failed scheduled test). Never
 * throws: a lost notice must not undo or fail the disabling.
 */
export async function noticeChannelDisabled(
  deps: { db: Kysely<Database>; messages: MessagesService; log: Logger },
  channel: { id: number; name: string },
  reason: string,
  at: number,
): Promise<void> {
  try {
    const roots = await deps.db
      .selectFrom('users')
      .select('id')
      .where('role', '>=', Role.Root)
      .where('deleted_at', 'is', null)
      .execute();
    if (roots.length === 0) return;
    await deps.messages.create(
      {
        title: `渠道「${channel.name}」（#${channel.id}）已被自动禁用`,
        content: `渠道 **${channel.name}**（#${channel.id}）于 ${new Date(at * 1000).toISOString()} 被自动禁用。\n\n原因：${reason.slice(0, 500)}`,
        format: 'markdown',
        userIds: roots.map((r) => Number(r.id)),
      },
      0,
    );
  } catch (err) {
    deps.log.error({ err, channelId: channel.id }, 'could not notify root of a disabled channel');
  }
}
