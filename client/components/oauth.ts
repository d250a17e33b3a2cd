import { expireSession } from '../lib/session-expiry.ts';
import type { Status } from '../lib/status.ts';

export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/**
 * Calls a REST endpoint of the console API; the whole envelope (some answers mean something by `message`).
 * A 401 applies the session rule (as tRPC's UNAUTHORIZED does), then fails like any other error.
 */
export async function restCall<T>(path: string, init: RequestInit = {}): Promise<Envelope<T>> {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  if (res.status === 401) expireSession();
  const body = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!body) throw new Error(`${res.status} ${res.statusText}`);
  if (!body.success) throw new Error(body.message);
  return body;
}

/** Calls a REST endpoint of the console API and unwraps the {success, message, data} envelope. */
export const restGet = async <T>(path: string, init?: RequestInit): Promise<T> => (await restCall<T>(path, init)).data;

export const restPost = async <T>(path: string, payload: unknown): Promise<T> =>
  (
    await restCall<T>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    })
  ).data;

/** `?turnstile=<token>` when a human-verification token is at hand. */
export const turnstileQuery = (token: string | undefined, sep: '?' | '&' = '?') =>
  token ? `${sep}turnstile=${encodeURIComponent(token)}` : '';

/** The provider's authorisation URL with a fresh state from the server (GET /api/oauth/state). */
export async function oauthUrl(provider: RedirectProvider, status: Status, aff?: string): Promise<string> {
  const state = await restGet<string>(`/api/oauth/state${aff ? `?aff=${encodeURIComponent(aff)}` : ''}`);
  // The server exchanges the code with the same redirect URI: ServerAddress when set, else this origin.
  const redirect = `${(status.server_address || window.location.origin).replace(/\/$/, '')}/oauth/${provider}`;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  switch (provider) {
    case 'github':
      return `https://github.com/login/oauth/authorize?${q({ client_id: status.github_client_id, state, scope: 'user:email' })}`;
    case 'linuxdo':
      return `https://connect.linux.do/oauth2/authorize?${q({ response_type: 'code', client_id: status.linuxdo_client_id, state, redirect_uri: redirect })}`;
    case 'oidc':
      return `${status.oidc_authorization_endpoint}?${q({
        client_id: status.oidc_client_id,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid profile email',
        state,
      })}`;
  }
}
