import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/*
 * A real OpenID Provider on loopback (the oidc-provider package, certified
 * implementation): discovery, authorization code flow, ID tokens, userinfo.
 * Instead of login and consent pages, the interaction step signs in whoever
 * the test named with `nextAccount` and grants the requested scopes.
 */

export interface LocalOp {
  issuer: string;
  wellKnown: string;
  /** The account the next authorization signs in as. */
  nextAccount: { sub: string; email?: string; name?: string };
  /** Drives the browser part: follows the authorization request to the redirect, gives code and state. */
  authorize(authorizeUrl: string): Promise<{ code: string; state: string; redirect: string }>;
  close(): Promise<void>;
}

export async function startOp(client: { id: string; secret: string; redirectUri: string }): Promise<LocalOp> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const accounts = new Map<string, LocalOp['nextAccount']>();
  const op: LocalOp = {
    issuer,
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    nextAccount: { sub: 'alice' },
    authorize: (url) => followAuthorization(url, client.redirectUri),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };

  const config: Configuration = {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [client.redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['local-op-cookie-key'] },
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'preferred_username'] },
    // The gateway builds a plain code request (state, no PKCE), as new-api consoles do.
    pkce: { required: () => false },
    findAccount: (_ctx, sub) => {
      const a = accounts.get(sub) ?? { sub };
      return { accountId: sub, claims: () => ({ ...a, preferred_username: sub }) };
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  };
  const provider = new Provider(issuer, config);
  const callback = provider.callback();

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        accounts.set(op.nextAccount.sub, op.nextAccount);
        await provider.interactionFinished(req, res, { login: { accountId: op.nextAccount.sub } });
        return;
      }
      const accountId = details.session?.accountId ?? op.nextAccount.sub;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return op;
}

/** A minimal browser: follows redirects with a cookie jar until the gateway's redirect URI. */
async function followAuthorization(start: string, redirectUri: string) {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(redirectUri)) {
      const u = new URL(url);
      return { code: u.searchParams.get('code') ?? '', state: u.searchParams.get('state') ?? '', redirect: url };
    }
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`authorization stopped at ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}
