import type { RelayCancel } from '../../cancel.ts';
import { refusal } from '../../errors.ts';
import { sendUpstream } from '../../upstream.ts';

/*
 * Baidu's legacy ERNIE API authenticates each call with an OAuth access token exchanged for the
 * channel key's API Key and Secret Key (`APIKey|SecretKey`, as new-api stores it). Tokens live 30
 * days; one is fetched per key and base URL and reused until shortly before it expires, or until
 * Baidu calls it invalid (error 110/111: `forgetBaiduToken`). Concurrent first calls share one fetch.
 */

/** Refetch this long before Baidu's expiry (new-api: one hour), so a token never dies mid-request. */
const MARGIN_MS = 60 * 60 * 1000;

interface Cached {
  token: string;
  expiresAt: number;
}

const cache = new Map<string, Cached>();
const inflight = new Map<string, Promise<BaiduToken>>();

/** A token, or Baidu's refusal of the key (HTTP status and body), which the adapter answers as a dead key. */
export type BaiduToken = { token: string } | { refusedStatus: number; refusedBody: string };

/** `APIKey|SecretKey` -> its parts; anything else is the operator's to fix. */
export function parseBaiduKey(key: string): { apiKey: string; secretKey: string } {
  const parts = key.split('|');
  if (parts.length !== 2 || !parts[0].trim() || !parts[1].trim())
    throw refusal(
      400,
      'A Baidu channel key must be "APIKey|SecretKey"',
      '百度渠道的密钥格式应为 "APIKey|SecretKey"',
      'invalid_channel_key',
    );
  return { apiKey: parts[0].trim(), secretKey: parts[1].trim() };
}

const cacheKey = (baseUrl: string, key: string) => `${baseUrl}\n${key}`;

/** Drops a token Baidu refused (110 invalid, 111 expired), so the next call fetches a fresh one. */
export function forgetBaiduToken(baseUrl: string, key: string, token: string): void {
  const k = cacheKey(baseUrl, key);
  if (cache.get(k)?.token === token) cache.delete(k);
}

async function fetchToken(baseUrl: string, key: string, signal: AbortSignal | RelayCancel): Promise<BaiduToken> {
  const { apiKey, secretKey } = parseBaiduKey(key);
  const q = new URLSearchParams({ grant_type: 'client_credentials', client_id: apiKey, client_secret: secretKey });
  // A network failure throws: the relay counts it as an upstream failure and tries elsewhere.
  const res = await sendUpstream(
    { url: `${baseUrl}/oauth/2.0/token?${q}`, method: 'POST', headers: { accept: 'application/json' } },
    signal,
  );
  const text = await res.body.text();
  let json: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    // Not JSON: a refusal below (a proxy's page), with Baidu's status when it is an error one.
  }
  if (res.statusCode === 200 && typeof json.access_token === 'string' && json.access_token) {
    const ttlMs = (typeof json.expires_in === 'number' ? json.expires_in : 2_592_000) * 1000;
    cache.set(cacheKey(baseUrl, key), {
      token: json.access_token,
      expiresAt: Date.now() + Math.max(ttlMs - MARGIN_MS, ttlMs / 2),
    });
    return { token: json.access_token };
  }
  // invalid_client (unknown API Key, wrong Secret Key) is a dead key; a 5xx stays an upstream failure.
  const status =
    res.statusCode >= 500 ? res.statusCode : json.error ? 401 : res.statusCode === 200 ? 502 : res.statusCode;
  return { refusedStatus: status, refusedBody: text };
}

/** The cached access token of a key, fetched when missing or about to expire. */
export function baiduToken(baseUrl: string, key: string, signal: AbortSignal | RelayCancel): Promise<BaiduToken> {
  const k = cacheKey(baseUrl, key);
  const hit = cache.get(k);
  if (hit && hit.expiresAt > Date.now()) return Promise.resolve({ token: hit.token });
  let pending = inflight.get(k);
  if (!pending) {
    pending = fetchToken(baseUrl, key, signal).finally(() => inflight.delete(k));
    inflight.set(k, pending);
  }
  return pending;
}
