import type { passkeysMessages } from '../server-messages/passkeys.ts';

/** Passkeys, WebAuthn (server/domains/passkeys/): in English. Joined by shared/server-messages-en.ts. */
export const passkeysEnglish: Record<keyof typeof passkeysMessages, string> = {
  'passkey.disabled': 'The administrator has not turned on passkey sign-in',
  'passkey.not_registered': 'This user has no passkey',
  'passkey.challenge_missing': 'The passkey check expired or was not started, please try again',
  'passkey.verify_failed': 'The passkey could not be verified; try again or contact the administrator',
  'passkey.https_required': 'Passkeys need HTTPS: {origin} is not a secure origin',
  'passkey.insecure_origin': 'Passkeys do not allow an insecure origin: {origin}',
  'passkey.registered': 'Passkey registered',
  'passkey.verified': 'Passkey verified',
  'passkey.removed': 'Passkey removed',
  'passkey.reset': 'Passkey reset',
};
