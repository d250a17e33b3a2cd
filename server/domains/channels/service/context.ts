import type { Kysely } from 'kysely';
import { type ChannelInfo, readChannelInfo, splitChannelKeys } from '../../../../shared/channel-info.ts';
import type { Logger } from 'pino';
import { scrubSecrets } from '../../../../shared/scrub-secrets.ts';
import type { ChangeBus } from '../../../cache/bus.ts';
import type { Database } from '../../../db/types.ts';
import type { ChannelRow } from '../channels.table.ts';
import { notFound } from '../../../errors.ts';
import type { MessagesService } from '../../messages/messages.service.ts';
import type { OptionsService } from '../../options/options.service.ts';
import { findChannelById } from '../channels.repo.ts';
import type { ChannelProbe } from '../channel-probe.client.ts';
import type { ChannelCalls } from '../channel-calls.service.ts';

/** What every verb of the channel service is built from. */
export interface ChannelsCtx {
  db: Kysely<Database>;
  bus: ChangeBus;
  options: OptionsService;
  probe: ChannelProbe;
  log: Logger;
  /** The inbox, for telling root about channels a test disabled. */
  messages: MessagesService;
  /** How the relay's latest calls went per channel (issue 45). */
  calls: ChannelCalls;
}

/** Admin spec §8: the channel may have been deleted in another tab; a refresh shows the list as it is. */
export const CHANNEL_NOT_FOUND = '渠道不存在，请刷新后重试';

export async function getChannelOrThrow(ctx: ChannelsCtx, id: number): Promise<ChannelRow> {
  const row = await findChannelById(ctx.db, id);
  if (!row) throw notFound('channel.not_found');
  return row;
}

/** The relay's routing cache listens on this topic; every committed channel write calls it. */
export const channelsChanged = (ctx: ChannelsCtx) => ctx.bus.publish('channels');

/**
 * The admin view: keys never leave the server in lists or detail (api-contract §1, §15.2);
 * channel_info as the object new-api's console reads (per-key status of a multi-key channel).
 * Reasons and test results stored before they were masked at the source are masked here (issue 39).
 */
export type ChannelView = Omit<ChannelRow, 'key' | 'channel_info'> & { key: ''; channel_info: ChannelInfo };
export function toChannelView(row: ChannelRow): ChannelView {
  const split = splitChannelKeys(row.key);
  const keys = [row.key, ...split];
  const info = readChannelInfo(row.channel_info, split.length, row.setting);
  const reasons = Object.entries(info.multi_key_disabled_reason).map(([i, r]) => [i, scrubSecrets(r, keys)]);
  const whole = (json: string) => (json ? scrubSecrets(json, keys, Infinity) : json);
  return {
    ...row,
    key: '',
    other_info: whole(row.other_info),
    test_result: whole(row.test_result),
    channel_info: { ...info, multi_key_disabled_reason: Object.fromEntries(reasons) },
  };
}
