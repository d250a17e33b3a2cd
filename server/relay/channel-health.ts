import type { AppDeps } from '../context.ts';
import { nowSeconds } from '../db/time.ts';
import { withKeyDisabled } from '../../shared/channel-info.ts';
import { scrubSecrets } from '../../shared/scrub-secrets.ts';
import { autoDisableChannel, disableAbilitiesOf } from '../domains/channels/channels.repo.ts';
import { autoDisableKey } from '../domains/channels/service/multi-key.ts';
import { noticeChannelDisabled } from '../domains/channels/disabled-notice.service.ts';
import type { ChannelConfig } from './channel-config.ts';
import { adapterFor } from './providers/index.ts';
import type { UpstreamError } from './providers/types.ts';
import { relayRuntimeOf } from './runtime.ts';

const disablingCodes = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const disablingTypes = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);

/** relay.md §4: the upstream answers that mean the key (or account) is dead, not that the request was bad. */
export function isDisablingError(deps: AppDeps, channelType: number, e: UpstreamError): boolean {
  if (e.status === 401) return true;
  if (adapterFor(channelType)?.deadKeyStatuses?.includes(e.status)) return true;
  if (e.code && disablingCodes.has(e.code)) return true;
  if (e.type && disablingTypes.has(e.type)) return true;
  const message = e.message.toLowerCase();
  return deps.services.options
    .get('AutomaticDisableKeywords')
    .split('\n')
    .map((k) => k.trim().toLowerCase())
    .some((k) => k !== '' && message.includes(k));
}

/** Whether this failure should take the key or channel out of service (option and channel auto_ban). */
export const shouldAutoDisable = (deps: AppDeps, channel: ChannelConfig, e: UpstreamError) =>
  channel.autoBan &&
  deps.services.options.get('AutomaticDisableChannelEnabled') &&
  isDisablingError(deps, channel.type, e);

/**
 * Takes a dead key out of service, never out of the channel (issue 28): on a multi-key channel the
 * key is marked auto-disabled (channel_info: status 3, reason, time) and the others keep serving;
 * a single-key channel, or a multi-key channel whose last enabled key this was, is auto-disabled:
 * status 3, other_info {status_reason, status_time}, its abilities disabled in the same
 * transaction. The key column is never written. Publishes 'channels' so every routing cache
 * reloads; this instance stops picking the key (or the channel) at once.
 */
export async function disableKey(deps: AppDeps, channel: ChannelConfig, key: string, upstream: string): Promise<void> {
  const now = nowSeconds();
  // Stored, logged and sent to root: never with the key an upstream's 401 quotes (issue 39).
  const reason = scrubSecrets(upstream, [channel.rawKey, ...channel.keys]);
  let disabledChannel: boolean;
  if (channel.keys.length > 1) {
    const index = channel.keys.indexOf(key);
    // The next request on this instance must not wait for the routing reload to skip the key.
    if (index >= 0) channel.keyInfo = withKeyDisabled(channel.keyInfo, index, 3, reason, now);
    disabledChannel = (await autoDisableKey(deps.db, channel.id, key, reason, now)).channelDisabled;
  } else {
    const info = JSON.stringify({ status_reason: reason.slice(0, 500), status_time: now });
    disabledChannel = await deps.db.transaction().execute(async (trx) => {
      if (!(await autoDisableChannel(trx, channel.id, info))) return false;
      await disableAbilitiesOf(trx, channel.id);
      return true;
    });
  }
  deps.log.warn({ channelId: channel.id, channel: channel.name, reason }, 'channel key disabled automatically');
  // The next request on this instance must not wait for the routing reload to skip the channel.
  if (disabledChannel) relayRuntimeOf(deps)?.routing.forget(channel.id);
  deps.bus.publish('channels', String(channel.id));
  if (disabledChannel)
    void noticeChannelDisabled({ messages: deps.services.messages, log: deps.log }, channel, reason, now);
}
