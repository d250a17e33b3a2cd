import type * as Oidc from 'openid-client';
import { z } from 'zod';
import { badRequest } from '../../../../errors.ts';
import type { OptionsService } from '../../../options/options.service.ts';
import { fetchJson, type ProviderProfile } from './profile.client.ts';

const claims = z
  .object({
    sub: z.string().min(1),
    preferred_username: z.string().optional(),
    name: z.string().optional(),
    email: z.string().optional(),
  })
  .loose();

/** Discovery documents change rarely; keep one configuration per settings until it ages out. */
const DISCOVERY_TTL_MS = 3600_000;
let cached: { key: string; at: number; config: Oidc.Configuration } | undefined;

// Loaded on the first OIDC sign-in: most gateways never configure one and need not hold it in memory.
const openidClient = () => import('openid-client');

async function discovered(options: OptionsService): Promise<Oidc.Configuration> {
  const oidc = await openidClient();
  const wellKnown = options.get('oidc.well_known');
  const clientId = options.get('oidc.client_id');
  const secret = options.get('oidc.client_secret');
  const key = JSON.stringify([wellKnown, clientId, secret]);
  if (cached?.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const url = new URL(wellKnown);
  // The operator chose an http:// provider (an intranet IdP); openid-client refuses it unless told.
  const insecure = url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
  let config: Oidc.Configuration;
  try {
    config = await oidc.discovery(url, clientId, secret, oidc.ClientSecretPost(secret), insecure);
  } catch {
    throw badRequest('oauth.oidc_discovery_failed');
  }
  cached = { key, at: Date.now(), config };
  return config;
}

/** Through discovery: the library checks the token answer (issuer, audience, ID token claims). */
async function viaDiscovery(options: OptionsService, callbackUrl: URL, state: string, iss: string | undefined) {
  const config = await discovered(options);
  const oidc = await openidClient();
  /*
   * RFC 9207: providers that announce it put `iss` in the redirect. Legacy
   * consoles forward only code and state; with a single configured provider
   * there is no mix-up to defend against, so the discovered issuer stands in.
   */
  const issuer =
    iss ??
    (config.serverMetadata().authorization_response_iss_parameter_supported
      ? config.serverMetadata().issuer
      : undefined);
  if (issuer) callbackUrl.searchParams.set('iss', issuer);
  let accessToken: string;
  let sub: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { expectedState: state });
    accessToken = tokens.access_token;
    sub = tokens.claims()?.sub ?? '';
  } catch {
    throw badRequest('oauth.oidc_failed');
  }
  try {
    return await oidc.fetchUserInfo(config, accessToken, sub || oidc.skipSubjectCheck);
  } catch {
    throw badRequest('oauth.oidc_userinfo_failed');
  }
}

/** Only endpoints configured (no well-known URL): the plain OAuth 2 code exchange, then userinfo. */
async function viaEndpoints(options: OptionsService, code: string, redirectUri: string) {
  const token = z.object({ access_token: z.string() }).safeParse(
    await fetchJson(
      options.get('oidc.token_endpoint'),
      {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: options.get('oidc.client_id'),
          client_secret: options.get('oidc.client_secret'),
        }),
      },
      ' OIDC ',
    ),
  );
  if (!token.success) throw badRequest('oauth.oidc_failed');
  return fetchJson(
    options.get('oidc.user_info_endpoint'),
    { headers: { authorization: `Bearer ${token.data.access_token}` } },
    ' OIDC ',
  );
}

/** OIDC sign-in: discovery from `oidc.well_known` when set, else the configured endpoints. */
export async function oidcProfile(
  options: OptionsService,
  code: string,
  state: string,
  redirectUri: string,
  iss?: string,
): Promise<ProviderProfile> {
  const callback = new URL(redirectUri);
  callback.searchParams.set('code', code);
  callback.searchParams.set('state', state);
  const info = options.get('oidc.well_known')
    ? await viaDiscovery(options, callback, state, iss)
    : await viaEndpoints(options, code, redirectUri);
  const user = claims.safeParse(info);
  if (!user.success) throw badRequest('oauth.oidc_no_sub');
  return {
    id: user.data.sub,
    displayName: user.data.name || user.data.preferred_username,
    email: user.data.email,
  };
}
