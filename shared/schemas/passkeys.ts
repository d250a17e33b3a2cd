import { z } from 'zod';

/*
 * What a browser sends back after navigator.credentials.create/get, as JSON with base64url fields: the shape
 * @simplewebauthn/browser produces and new-api's console builds by hand (buildRegistrationResult /
 * buildAssertionResult, which send `null` for a missing user handle or attachment). Only the shape is
 * checked here; the signature and everything it covers are checked by the passkeys service.
 */

const b64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, '参数错误')
  .max(16_384, '参数错误');
const nullable = <T extends z.ZodType>(s: T) => s.nullish().transform((v) => v ?? undefined);
const attachment = nullable(z.enum(['platform', 'cross-platform']).catch('platform'));
const common = {
  id: b64url.min(1, '参数错误'),
  rawId: b64url.min(1, '参数错误'),
  type: z.literal('public-key', { message: '参数错误' }),
  authenticatorAttachment: attachment,
  // Read as unknown: the browser's type for it is an interface, which a record type does not accept.
  clientExtensionResults: z
    .unknown()
    .transform((v) => (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>),
};

export const registrationCredential = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: nullable(z.array(z.string().max(32)).max(10)),
  }),
});

export const authenticationCredential = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: nullable(b64url),
  }),
});

export type RegistrationCredential = z.infer<typeof registrationCredential>;
export type AuthenticationCredential = z.infer<typeof authenticationCredential>;
