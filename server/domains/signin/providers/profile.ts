import { badRequest } from '../../../errors.ts';

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
    throw badRequest(`无法连接${what}服务器，请稍后重试`);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok || body === undefined) throw badRequest(`${what}服务器返回错误（HTTP ${res.status}）`);
  return body;
}
