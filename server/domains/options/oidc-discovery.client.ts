import { fetch } from 'undici';
import { z } from 'zod';
import { badRequest, isAppError } from '../../errors.ts';
import { netFailureError } from '../../net-failure.ts';

/*
 * "Fetch from well-known" on the OIDC settings: the server (not the browser) reads the
 * provider's discovery document, so CORS on the provider does not matter and the
 * admin sees one clear message when it fails.
 */

export const oidcDiscoveryInput = z.object({
  wellKnown: z
    .string()
    .trim()
    .regex(/^https?:\/\/\S+$/i, 'Well-Known URL 必须以 http:// 或 https:// 开头'),
});

const discovery = z.object({
  issuer: z.string().optional(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  userinfo_endpoint: z.string().url().optional(),
});

export interface OidcEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  user_info_endpoint: string;
}

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 256 * 1024;

export async function fetchOidcConfig(wellKnown: string): Promise<OidcEndpoints> {
  let text: string;
  try {
    const res = await fetch(wellKnown, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'follow',
    });
    if (!res.ok) throw badRequest('option.oidc_discovery_http', { status: res.status });
    text = await res.text();
  } catch (err) {
    if (isAppError(err)) throw err;
    throw netFailureError('BAD_REQUEST', err, 'oidc', wellKnown);
  }
  if (text.length > MAX_BYTES) throw badRequest('option.oidc_discovery_too_large');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('option.oidc_discovery_not_json');
  }
  const r = discovery.safeParse(json);
  if (!r.success) throw badRequest('option.oidc_discovery_incomplete');
  return {
    authorization_endpoint: r.data.authorization_endpoint,
    token_endpoint: r.data.token_endpoint,
    user_info_endpoint: r.data.userinfo_endpoint ?? '',
  };
}
