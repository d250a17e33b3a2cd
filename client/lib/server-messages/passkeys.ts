import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { passkeysMessages } from '../../../shared/server-messages/passkeys.ts';

/** Passkeys, WebAuthn (server/domains/passkeys/): in English. Joined by client/lib/server-messages.ts. */
export const passkeysDescriptors: Record<keyof typeof passkeysMessages, MessageDescriptor> = {
  'passkey.disabled': msg({
    context: 'passkey.disabled',
    message: 'The administrator has not turned on passkey sign-in',
  }),
  'passkey.not_registered': msg({ context: 'passkey.not_registered', message: 'This user has no passkey' }),
  'passkey.challenge_missing': msg({
    context: 'passkey.challenge_missing',
    message: 'The passkey check expired or was not started, please try again',
  }),
  'passkey.verify_failed': msg({
    context: 'passkey.verify_failed',
    message: 'The passkey could not be verified; try again or contact the administrator',
  }),
  'passkey.https_required': msg({
    context: 'passkey.https_required',
    message: 'Passkeys need HTTPS: {origin} is not a secure origin',
  }),
  'passkey.insecure_origin': msg({
    context: 'passkey.insecure_origin',
    message: 'Passkeys do not allow an insecure origin: {origin}',
  }),
  'passkey.registered': msg({ context: 'passkey.registered', message: 'Passkey registered' }),
  'passkey.verified': msg({ context: 'passkey.verified', message: 'Passkey verified' }),
  'passkey.removed': msg({ context: 'passkey.removed', message: 'Passkey removed' }),
  'passkey.reset': msg({ context: 'passkey.reset', message: 'Passkey reset' }),
};
