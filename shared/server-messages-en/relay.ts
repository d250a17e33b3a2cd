import type { relayMessages } from '../server-messages/relay.ts';

/** The relay's own refusals to API callers (server/relay/): in English. Joined by shared/server-messages-en.ts. */
export const relayEnglish: Record<keyof typeof relayMessages, string> = {
  'relay.no_key': 'No API key (token) was given',
  'relay.invalid_token': 'Invalid token',
  'relay.token_expired': 'This token has expired',
  'relay.token_disabled': 'This token is not enabled',
  'relay.ip_not_allowed': "Your IP {ip} is not in this token's allow-list",
  'relay.channel_pin_forbidden': 'Only administrators can pin a channel',
  'relay.invalid_channel_id': 'Invalid channel id',
  'relay.group_forbidden': 'No access to group {group}',
  'relay.group_retired': 'Group {group} has been retired',
  'relay.model_forbidden': 'This token may not use model {model}',
  'relay.api_not_implemented': 'API not implemented',
  'relay.endpoint_unsupported': 'Unsupported endpoint: {path}',
};
