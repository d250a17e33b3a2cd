import { JWT } from 'google-auth-library';
import { z } from 'zod';
import { refusal } from '../../errors.ts';

/*
 * A Vertex AI channel key is what new-api stores: the service account's JSON key file as it was
 * downloaded (an OAuth access token is exchanged for it), or an express-mode API key (any text that
 * is not a JSON object). The token exchange goes through google-auth-library's JWT client, one per
 * key, which keeps its token until shortly before it expires; the key file's own `token_uri` is
 * honoured (the library always posts to Google's), so a test or a private endpoint can stand in.
 */

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

const serviceAccountSchema = z.object({
  project_id: z.string().min(1),
  private_key: z.string().min(1),
  client_email: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().optional(),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export type VertexKey = { kind: 'service_account'; account: ServiceAccount } | { kind: 'api_key'; apiKey: string };

/** The channel key as a service account (a JSON object) or an express-mode API key. */
const parsedKeys = new Map<string, VertexKey>();

/**
 * The channel key read once per key: a service account's JSON is parsed and checked on first use
 * (an attempt reads it several times: request, headers, token), an API key taken as it is.
 */
export function parseVertexKey(key: string): VertexKey {
  const known = parsedKeys.get(key);
  if (known) return known;
  const parsed = readVertexKey(key);
  // Keys come from channels (a handful); a burst of distinct bad keys throws before reaching here.
  if (parsedKeys.size > 1000) parsedKeys.clear();
  parsedKeys.set(key, parsed);
  return parsed;
}

function readVertexKey(key: string): VertexKey {
  const text = key.trim();
  if (!text.startsWith('{')) return { kind: 'api_key', apiKey: text };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = serviceAccountSchema.safeParse(json);
  if (!parsed.success)
    throw refusal(
      400,
      'A Vertex AI channel key must be a service account JSON key (project_id, client_email, private_key) or an API key',
      'Vertex AI 渠道的密钥应为服务账号 JSON 密钥（含 project_id、client_email、private_key）或 API Key',
      'invalid_channel_key',
    );
  return { kind: 'service_account', account: parsed.data };
}

/** A token, or the token endpoint's refusal of the service account (a dead key). */
export type VertexToken = { token: string } | { refusedStatus: number; refusedBody: string };

const clients = new Map<string, JWT>();

function clientFor(sa: ServiceAccount): JWT {
  const cacheKey = `${sa.client_email}\n${sa.private_key_id ?? ''}\n${sa.token_uri ?? ''}\n${sa.private_key}`;
  let client = clients.get(cacheKey);
  if (client) return client;
  client = new JWT({ email: sa.client_email, key: sa.private_key, keyId: sa.private_key_id, scopes: [SCOPE] });
  const tokenUri = sa.token_uri;
  if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL)
    client.transporter.interceptors.request.add({
      resolved: async (opts) => {
        if (String(opts.url) === GOOGLE_TOKEN_URL) opts.url = new URL(tokenUri);
        return opts;
      },
    });
  clients.set(cacheKey, client);
  return client;
}

interface GaxiosLike {
  response?: { status?: number; data?: unknown };
}

/**
 * The service account's cached access token (fetched when missing or about to expire). A refusal
 * (invalid_grant: a deleted key, a wrong signature; 4xx) comes back as one; a network failure or
 * a 5xx throws, which the relay counts as an upstream failure.
 */
export async function vertexAccessToken(sa: ServiceAccount): Promise<VertexToken> {
  try {
    const { token } = await clientFor(sa).getAccessToken();
    if (!token)
      return { refusedStatus: 502, refusedBody: '{"error":"no_token","error_description":"no access token"}' };
    return { token };
  } catch (err) {
    const res = (err as GaxiosLike).response;
    if (!res?.status || res.status >= 500) throw err;
    const body = typeof res.data === 'string' ? res.data : JSON.stringify(res.data ?? {});
    return { refusedStatus: 401, refusedBody: body };
  }
}
