import type { twofaMessages } from '../server-messages/twofa.ts';

/**
 * Two-factor sign-in (TOTP) and the fresh check before sensitive actions, POST /api/verify
 * (server/domains/twofa/): in English. Joined by shared/server-messages-en.ts.
 */
export const twofaEnglish: Record<keyof typeof twofaMessages, string> = {
  'twofa.require_code': 'Enter your two-factor code',
  'twofa.session_expired': 'The sign-in has expired, please log in again',
  'twofa.already_enabled': 'Two-factor authentication is already on; turn it off before setting it up again',
  'twofa.setup_first': 'Set up two-factor authentication first',
  'twofa.enabled_already': 'Two-factor authentication is already on',
  'twofa.not_enabled': 'Two-factor authentication is not on for this user',
  'twofa.wrong_code': 'Wrong verification or backup code, please try again',
  'twofa.code_reused': 'This code was already used; wait for the next one in your authenticator app',
  'twofa.code_format': 'The verification code must be 6 digits',
  'twofa.locked': 'Too many wrong codes, try again in {minutes} min',
  'twofa.setup_started': 'Setup started: scan the QR code with your authenticator app and enter the code it shows',
  'twofa.enabled': 'Two-factor authentication is on',
  'twofa.disabled': 'Two-factor authentication is off',
  'twofa.codes_regenerated': 'New backup codes generated',
  'twofa.admin_disabled': "The user's two-factor authentication was turned off",
  'twofa.outranked': 'You cannot change the two-factor settings of a user of the same or a higher role',
  'verify.success': 'Verified',
  'verify.method_unsupported': 'Unsupported verification method: {method}',
  'verify.code_required': 'Enter the verification code',
  'verify.session_required': 'Verification needs a console session (not an access token)',
  'verify.required': 'Verify it is you first',
};
