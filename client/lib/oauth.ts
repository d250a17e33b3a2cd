import { restGet } from './rest.ts';
import type { Status } from './status.ts';

export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';

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
