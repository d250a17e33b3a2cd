import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../app.ts';

/*
 * new-api's own web console as it talks to /api (web/src/helpers/api.js, April 2025): an axios
 * instance with relative URLs, the session cookie, `New-API-User: <id or -1>` and
 * `Cache-Control: no-store` on every call, bodies serialised by JSON.stringify (so `undefined`
 * fields vanish and `null` stays), query strings built by string templates. Here over real HTTP
 * on loopback, so what the console sends is exactly what the server reads.
 */

export interface ConsoleAnswer {
  status: number;
  /** The parsed JSON body (axios's `res.data`), or the text when it is not JSON. */
  data: unknown;
  headers: Headers;
}

/** Starts listening on a loopback port (once) and gives the base URL. */
export async function listen(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export class LegacyConsole {
  private cookie = '';
  /** What the console keeps in localStorage.user.id; -1 while logged out. */
  userId = -1;

  /**
   * `spreadIps` gives each call its own X-Forwarded-For (the test app trusts the proxy), so
   * tables of many sign-in calls do not trip the per-IP sign-in limit meant for one browser.
   */
  constructor(
    private readonly base: string,
    private readonly spreadIps = false,
  ) {}

  async send(method: string, url: string, body?: unknown, rawBody?: string): Promise<ConsoleAnswer> {
    const headers: Record<string, string> = {
      'New-API-User': String(this.userId),
      'Cache-Control': 'no-store',
      accept: 'application/json, text/plain, */*',
    };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.spreadIps)
      headers['x-forwarded-for'] = `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
    const payload = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + url, { method, headers, body: payload, redirect: 'manual' });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('session='));
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text === '' ? '' : JSON.parse(text);
    } catch {
      // plain text (the epay notify answer) stays text
    }
    return { status: res.status, data, headers: res.headers };
  }

  get = (url: string) => this.send('GET', url);
  post = (url: string, body?: unknown) => this.send('POST', url, body);
  put = (url: string, body?: unknown) => this.send('PUT', url, body);
  del = (url: string) => this.send('DELETE', url);

  /** LoginForm: POST /api/user/login, then the answer's user goes to localStorage (its id to New-API-User). */
  async login(username: string, password: string): Promise<this> {
    const res = await this.post('/api/user/login?turnstile=', { username, password });
    const body = res.data as { success?: boolean; message?: string; data?: { id: number } };
    if (!body.success || !body.data) throw new Error(`login(${username}) failed: ${res.status} ${body.message}`);
    this.userId = body.data.id;
    return this;
  }
}
