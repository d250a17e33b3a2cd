import type { netMessages } from '../server-messages/net.ts';

/** A failed connection, as a sentence (server/net-failure.ts): in English. Joined by shared/server-messages-en.ts. */
export const netEnglish: Record<keyof typeof netMessages, string> = {
  'net.refused': 'Cannot connect to {target}: connection refused ({address})',
  'net.dns': 'Cannot connect to {target}: the host name {host} was not found',
  'net.timeout': 'No answer from {target} in time ({address})',
  'net.reset': 'The connection to {target} was closed unexpectedly ({address})',
  'net.tls': 'Cannot connect securely to {target}: its certificate was not accepted ({address})',
  'net.unreachable': 'Cannot connect to {target}: the network cannot reach it ({address})',
  'net.bad_address': 'The address of {target} is not valid ({address})',
  'net.failed': 'The request to {target} failed ({address})',
  'net.target.upstream': 'the upstream',
  'net.target.release_feed': 'the release feed',
  'net.target.oidc': 'the OIDC provider',
};
