import { expireSession } from './session-expiry.ts';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
  /** On failures, technical detail for whoever wants it (a network error's own words); see lib/errors.ts. */
  detail?: string;
}

/** A REST failure: the envelope's message, and its technical detail when it gave one. */
export class RestError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * Calls a REST endpoint of the console API; the whole envelope (some answers mean something by `message`).
 * A 401 applies the session rule (as tRPC's UNAUTHORIZED does), then fails like any other error.
 */
export async function restCall<T>(path: string, init: RequestInit = {}): Promise<Envelope<T>> {
  // The server words REST refusals in English for a browser that prefers it (API clients); the console
  // asks for new-api's Chinese, which it recognises and shows in its own language (lib/server-messages.ts).
  const headers = new Headers(init.headers);
  if (!headers.has('accept-language')) headers.set('accept-language', 'zh-CN');
  const res = await fetch(path, { credentials: 'same-origin', ...init, headers });
  if (res.status === 401) expireSession();
  const body = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!body) throw new Error(`${res.status} ${res.statusText}`);
  if (!body.success) throw new RestError(body.message, body.detail);
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
