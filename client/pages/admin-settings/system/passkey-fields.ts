import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';

/* Passkey sign-in (new-api's passkey.* settings; docs/configuration.md, "Passkeys"). */
export const passkeyFields: FieldDef[] = [
  {
    key: 'passkey.enabled',
    kind: 'switch',
    label: msg`Allow sign-in with passkeys`,
    description: msg`Users register a passkey under Personal settings and then sign in without a password. Needs HTTPS (or localhost).`,
    span: 12,
  },
  {
    key: 'passkey.rp_display_name',
    kind: 'text',
    label: msg`Name shown by the passkey prompt`,
    description: msg`Empty means the system name`,
    span: 6,
  },
  {
    key: 'passkey.rp_id',
    kind: 'text',
    label: msg`Relying party id (domain)`,
    description: msg`Empty means the host of the server address. Passkeys are bound to it: changing it later makes existing passkeys stop working.`,
    placeholder: 'gateway.example.com',
    span: 6,
  },
  {
    key: 'passkey.origins',
    kind: 'textarea',
    label: msg`Allowed origins`,
    description: msg`One per line or comma-separated, e.g. https://gateway.example.com. Empty means the server address, or the address the browser used.`,
    rows: 2,
    span: 12,
  },
  {
    key: 'passkey.user_verification',
    kind: 'select',
    label: msg`User verification`,
    span: 4,
    choices: [
      { value: 'preferred', label: msg`Preferred` },
      { value: 'required', label: msg`Required (PIN or biometrics)` },
      { value: 'discouraged', label: msg`Discouraged` },
    ],
  },
  {
    key: 'passkey.attachment_preference',
    kind: 'select',
    label: msg`Authenticator type`,
    span: 4,
    choices: [
      { value: '', label: msg`Any` },
      { value: 'platform', label: msg`This device (platform)` },
      { value: 'cross-platform', label: msg`Security key or phone (cross-platform)` },
    ],
  },
  {
    key: 'passkey.allow_insecure_origin',
    kind: 'switch',
    label: msg`Allow plain http origins`,
    description: msg`Only for testing on a private network; browsers refuse passkeys on http except on localhost.`,
    span: 4,
  },
];
