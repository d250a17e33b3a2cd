import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { netMessages } from '../../../shared/server-messages/net.ts';

/** A failed connection, as a sentence (server/net-failure.ts): in English. Joined by client/lib/server-messages.ts. */
export const netDescriptors: Record<keyof typeof netMessages, MessageDescriptor> = {
  'net.refused': msg({ context: 'net.refused', message: 'Cannot connect to {target}: connection refused ({address})' }),
  'net.dns': msg({ context: 'net.dns', message: 'Cannot connect to {target}: the host name {host} was not found' }),
  'net.timeout': msg({ context: 'net.timeout', message: 'No answer from {target} in time ({address})' }),
  'net.reset': msg({
    context: 'net.reset',
    message: 'The connection to {target} was closed unexpectedly ({address})',
  }),
  'net.tls': msg({
    context: 'net.tls',
    message: 'Cannot connect securely to {target}: its certificate was not accepted ({address})',
  }),
  'net.unreachable': msg({
    context: 'net.unreachable',
    message: 'Cannot connect to {target}: the network cannot reach it ({address})',
  }),
  'net.bad_address': msg({ context: 'net.bad_address', message: 'The address of {target} is not valid ({address})' }),
  'net.failed': msg({ context: 'net.failed', message: 'The request to {target} failed ({address})' }),
  'net.target.upstream': msg({ context: 'net.target.upstream', message: 'the upstream' }),
  'net.target.release_feed': msg({ context: 'net.target.release_feed', message: 'the release feed' }),
  'net.target.oidc': msg({ context: 'net.target.oidc', message: 'the OIDC provider' }),
};
