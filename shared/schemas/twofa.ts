import { z } from 'zod';

/* Two-factor inputs, for the REST adapter and the console alike. */

/** A TOTP code (6 digits) or a backup code (XXXX-XXXX), as typed; the service reads which. */
export const twoFaCodeInput = z.object({ code: z.string().max(64).default('') });
export type TwoFaCodeInput = z.infer<typeof twoFaCodeInput>;

/** new-api's UniversalVerify body: method '2fa' with its code, or 'passkey' after a passkey verification. */
export const secureVerifyInput = z.object({
  method: z.string().max(32).default(''),
  code: z.string().max(64).default(''),
});
