import { badRequest } from '../../../../errors.ts';

/** What a provider tells about the person signing in. */
export interface ProviderProfile {
  id: string;
  displayName?: string;
  email?: string;
}

/** fetch + JSON with a timeout; upstream failures become a readable 400 (never echoing secrets). */
export async function fetchJson(url: string, init: RequestInit, what: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw badRequest('oauth.server_unreachable', { provider: what });
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok || body === undefined) throw badRequest('oauth.server_error', { provider: what, status: res.status });
  return body;
}
