import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { twofaMessages } from '../../../shared/server-messages/twofa.ts';

/**
 * Two-factor sign-in (TOTP) and the fresh check before sensitive actions, POST /api/verify
 * (server/domains/twofa/): in English. Joined by client/lib/server-messages.ts.
 */
export const twofaDescriptors: Record<keyof typeof twofaMessages, MessageDescriptor> = {
  'twofa.require_code': msg({ context: 'twofa.require_code', message: 'Enter your two-factor code' }),
  'twofa.session_expired': msg({
    context: 'twofa.session_expired',
    message: 'The sign-in has expired, please log in again',
  }),
  'twofa.already_enabled': msg({
    context: 'twofa.already_enabled',
    message: 'Two-factor authentication is already on; turn it off before setting it up again',
  }),
  'twofa.setup_first': msg({ context: 'twofa.setup_first', message: 'Set up two-factor authentication first' }),
  'twofa.enabled_already': msg({
    context: 'twofa.enabled_already',
    message: 'Two-factor authentication is already on',
  }),
  'twofa.not_enabled': msg({
    context: 'twofa.not_enabled',
    message: 'Two-factor authentication is not on for this user',
  }),
  'twofa.wrong_code': msg({
    context: 'twofa.wrong_code',
    message: 'Wrong verification or backup code, please try again',
  }),
  'twofa.code_reused': msg({
    context: 'twofa.code_reused',
    message: 'This code was already used; wait for the next one in your authenticator app',
  }),
  'twofa.code_format': msg({ context: 'twofa.code_format', message: 'The verification code must be 6 digits' }),
  'twofa.locked': msg({ context: 'twofa.locked', message: 'Too many wrong codes, try again in {minutes} min' }),
  'twofa.setup_started': msg({
    context: 'twofa.setup_started',
    message: 'Setup started: scan the QR code with your authenticator app and enter the code it shows',
  }),
  'twofa.enabled': msg({ context: 'twofa.enabled', message: 'Two-factor authentication is on' }),
  'twofa.disabled': msg({ context: 'twofa.disabled', message: 'Two-factor authentication is off' }),
  'twofa.codes_regenerated': msg({ context: 'twofa.codes_regenerated', message: 'New backup codes generated' }),
  'twofa.admin_disabled': msg({
    context: 'twofa.admin_disabled',
    message: "The user's two-factor authentication was turned off",
  }),
  'twofa.outranked': msg({
    context: 'twofa.outranked',
    message: 'You cannot change the two-factor settings of a user of the same or a higher role',
  }),
  'verify.success': msg({ context: 'verify.success', message: 'Verified' }),
  'verify.method_unsupported': msg({
    context: 'verify.method_unsupported',
    message: 'Unsupported verification method: {method}',
  }),
  'verify.code_required': msg({ context: 'verify.code_required', message: 'Enter the verification code' }),
  'verify.session_required': msg({
    context: 'verify.session_required',
    message: 'Verification needs a console session (not an access token)',
  }),
  'verify.required': msg({ context: 'verify.required', message: 'Verify it is you first' }),
};
