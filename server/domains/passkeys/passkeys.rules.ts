import type { OptionReader } from '../../../shared/options.ts';
import { badRequest } from '../../errors.ts';

/*
 * Who the relying party is for one request, as new-api decides it: the origins are the `passkey.origins`
 * option (comma or newline separated), else ServerAddress, else the address the browser used; the RP id is
 * `passkey.rp_id`, else the host of the first origin. WebAuthn needs a secure context, so a plain-http origin
 * is refused unless the admin allows it, except on localhost (browsers treat it as secure).
 */

export interface RelyingParty {
  name: string;
  id: string;
  origins: string[];
  userVerification: 'required' | 'preferred' | 'discouraged';
  attachment: 'platform' | 'cross-platform' | undefined;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const hostOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
};

/** An origin is scheme://host[:port]; a configured address may carry a path, which WebAuthn origins never do. */
const originOf = (address: string): string | undefined => {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
};

const isInsecure = (origin: string) => origin.toLowerCase().startsWith('http://');

/** `requestOrigin`: scheme://host of the call as the server saw it (behind a trusted proxy, the forwarded one). */
export function relyingParty(o: OptionReader, requestOrigin: string): RelyingParty {
  const allowInsecure = o('passkey.allow_insecure_origin');
  const configured = o('passkey.origins')
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  let origins: string[];
  if (configured.length > 0) {
    origins = configured.map((c) => originOf(c) ?? c);
    const insecure = origins.find(isInsecure);
    if (insecure && !allowInsecure) throw badRequest('passkey.insecure_origin', { origin: insecure });
  } else {
    const origin = originOf(o('ServerAddress')) ?? requestOrigin;
    const host = hostOf(origin) ?? '';
    if (isInsecure(origin) && !allowInsecure && !LOCAL_HOSTS.has(host))
      throw badRequest('passkey.https_required', { origin });
    origins = [origin];
  }
  const configuredId = o('passkey.rp_id').trim();
  const id = configuredId !== '' ? (hostOf(`https://${configuredId}`) ?? configuredId) : (hostOf(origins[0]!) ?? '');
  return {
    name: o('passkey.rp_display_name').trim() || o('SystemName'),
    id,
    origins,
    userVerification: o('passkey.user_verification'),
    attachment: o('passkey.attachment_preference') || undefined,
  };
}

/** How long a ceremony's challenge stays usable (new-api's WebAuthn timeout). */
export const CHALLENGE_TTL_S = 120;

/** The ceremonies a challenge can be for; each browser holds at most one of each at a time. */
export type CeremonyPurpose = 'register' | 'login' | 'verify';

/** A fresh passkey verification lets POST /api/verify mark the session verified within this many seconds. */
export const VERIFY_READY_TTL_S = 60;

/**
 * The user handle stored on the authenticator: the user id as decimal text, as new-api writes it, so a
 * passkey registered there (and imported with its user) signs in here too.
 */
export const userHandleOf = (userId: number) => new TextEncoder().encode(String(userId));

/** The user id a discoverable credential's handle names, when it is one of ours (undefined otherwise). */
export function userIdOfHandle(handle: string | undefined): number | undefined {
  if (!handle) return undefined;
  const text = Buffer.from(handle, 'base64url').toString('utf8');
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
