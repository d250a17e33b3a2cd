import type { Status } from '../lib/status.ts';

export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** Calls a REST endpoint of the console API and unwraps the {success, message, data} envelope. */
export async function restGet<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!body) throw new Error(`${res.status} ${res.statusText}`);
  if (!body.success) throw new Error(body.message);
  return body.data;
}

/** The provider's authorisation URL with a fresh state from the server (GET /api/oauth/state). */
export async function oauthUrl(provider: RedirectProvider, status: Status, aff?: string): Promise<string> {
  const state = await restGet<string>(`/api/oauth/state${aff ? `?aff=${encodeURIComponent(aff)}` : ''}`);
  const redirect = `${window.location.origin}/oauth/${provider}`;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  switch (provider) {
    case 'github':
      return `https://github.com/login/oauth/authorize?${q({ client_id: status.github_client_id, state, scope: 'user:email' })}`;
    case 'linuxdo':
      return `https://connect.linux.do/oauth2/authorize?${q({ response_type: 'code', client_id: status.linuxdo_client_id, state })}`;
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
