import OpenAI from 'openai';
import { expect } from 'vitest';

/*
 * A gateway in another process (the single executable, a container), driven over HTTP as a user
 * drives it: the REST API (/api/*) with a session cookie, and the relay with the official OpenAI SDK.
 */

export interface Session {
  cookie: string;
  id: number;
}

export const ROOT = { username: 'root', password: 'Docker-Root-Pass-1' };

export async function api(base: string, method: string, url: string, body?: unknown, session?: Session) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(session ? { cookie: session.cookie, 'new-api-user': String(session.id) } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; message?: string; data?: unknown };
  expect(json.success, `${method} ${base}${url}: ${json.message}`).toBe(true);
  return { res, data: json.data };
}

export async function signIn(base: string, username = ROOT.username, password = ROOT.password): Promise<Session> {
  const { res, data } = await api(base, 'POST', '/api/user/login', { username, password });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: (data as { id: number }).id };
}

/**
 * Sets up root on a fresh gateway, adds a channel to the fake upstream and a token; returns the token's key.
 * `setupCode`: the code the gateway printed in its log at start, which the wizard needs from a caller that is
 * not on the server itself (a container behind its published port, a proxy); a gateway on loopback needs none.
 */
export async function firstDay(
  base: string,
  upstreamUrl: string,
  token: Record<string, unknown> = {},
  setupCode?: string,
): Promise<{ admin: Session; key: string }> {
  await api(base, 'POST', '/api/setup', {
    ...ROOT,
    confirmPassword: ROOT.password,
    ...(setupCode === undefined ? {} : { setup_code: setupCode }),
  });
  const admin = await signIn(base);
  await api(
    base,
    'POST',
    '/api/channel/',
    { type: 1, name: 'fake', key: 'sk-fake-upstream', base_url: upstreamUrl, models: 'gpt-4o', group: 'default' },
    admin,
  );
  await api(base, 'POST', '/api/token/', { name: 'docker', unlimited_quota: true, expired_time: -1, ...token }, admin);
  const [key] = await tokenKeys(base, admin);
  return { admin, key };
}

/**
 * The signed-in user's token keys with `sk-`, newest first, as today's new-api console gets them
 * (the 2026 contract): the list's page object has masked keys, POST /api/token/batch/keys the full ones.
 */
export async function tokenKeys(base: string, session: Session): Promise<string[]> {
  const page = (await api(base, 'GET', '/api/token/?p=1&size=100', undefined, session)).data as {
    items: { id: number }[];
  };
  const ids = page.items.map((t) => t.id);
  if (ids.length === 0) return [];
  const { keys } = (await api(base, 'POST', '/api/token/batch/keys', { ids }, session)).data as {
    keys: Record<string, string>;
  };
  return ids.map((id) => `sk-${keys[id]}`);
}

/** One chat completion through the relay with the official SDK; resolves with its text. */
export async function chat(base: string, apiKey: string, content: string): Promise<string> {
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey, maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
  return answer.choices[0]?.message.content ?? '';
}
