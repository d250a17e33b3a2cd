import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Stand-ins for GitHub, Linux.do, a WeChat login server and Cloudflare's
 * Turnstile verify endpoint, speaking their documented request shapes on one
 * loopback port. The gateway reaches them through the URL overrides.
 */

export const GITHUB_CLIENT = { id: 'gh-client', secret: 'gh-secret' };
export const LINUXDO_CLIENT = { id: 'ld-client', secret: 'ld-secret' };
export const WECHAT_TOKEN = 'wechat-server-token';
export const TURNSTILE_SECRET = 'turnstile-secret';
/** WeChat verification codes live 3 minutes on the WeChat server. */
const WECHAT_CODE_TTL_MS = 3 * 60_000;

export interface FakeProviders {
  url: string;
  /** WeChat codes the official account handed out: code → [openid, issued at (ms)]. */
  wechatCodes: Map<string, [string, number]>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const githubUsers: Record<string, unknown> = {
  'gh-token': { id: 4242, login: 'octo', name: 'Octo Cat', email: 'octo@gh.test' },
  'gh-token-private': { id: 4343, login: 'shy', name: null, email: null },
};
const githubEmails: Record<string, unknown> = {
  'gh-token-private': [
    { email: 'old@gh.test', primary: false, verified: true },
    { email: 'shy@gh.test', primary: true, verified: true },
  ],
};
const linuxdoUsers: Record<string, unknown> = {
  'ld-token-low': { id: 7, username: 'newbie', name: 'New Bie', active: true, trust_level: 0, silenced: false },
  'ld-token-good': { id: 8, username: 'regular', name: 'Regular', active: true, trust_level: 3, silenced: false },
};

async function handle(req: http.IncomingMessage, res: http.ServerResponse, wechatCodes: FakeProviders['wechatCodes']) {
  const url = new URL(req.url ?? '/', 'http://fake');
  const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
    const b = JSON.parse(await bodyOf(req)) as Record<string, string>;
    const ok =
      b.client_id === GITHUB_CLIENT.id && b.client_secret === GITHUB_CLIENT.secret && b.code?.startsWith('gh-good');
    return json(
      res,
      200,
      ok
        ? { access_token: b.code === 'gh-good-private' ? 'gh-token-private' : 'gh-token' }
        : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
    );
  }
  if (url.pathname === '/user/emails')
    return githubEmails[bearer] ? json(res, 200, githubEmails[bearer]) : json(res, 404, {});
  if (url.pathname === '/user') return githubUsers[bearer] ? json(res, 200, githubUsers[bearer]) : json(res, 401, {});
  if (req.method === 'POST' && url.pathname === '/oauth2/token') {
    const basic = Buffer.from(`${LINUXDO_CLIENT.id}:${LINUXDO_CLIENT.secret}`).toString('base64');
    const form = new URLSearchParams(await bodyOf(req));
    if (req.headers.authorization !== `Basic ${basic}`) return json(res, 401, { error: 'invalid_client' });
    const code = form.get('code');
    return code === 'ld-low' || code === 'ld-good'
      ? json(res, 200, { access_token: `ld-token-${code.slice(3)}` })
      : json(res, 400, { error: 'invalid_grant' });
  }
  if (url.pathname === '/api/user')
    return linuxdoUsers[bearer] ? json(res, 200, linuxdoUsers[bearer]) : json(res, 401, {});
  if (url.pathname === '/api/wechat/user') {
    if (req.headers.authorization !== WECHAT_TOKEN) return json(res, 200, { success: false, message: '无权访问' });
    const entry = wechatCodes.get(url.searchParams.get('code') ?? '');
    if (!entry || Date.now() - entry[1] > WECHAT_CODE_TTL_MS)
      return json(res, 200, { success: false, message: '验证码错误或已过期' });
    return json(res, 200, { success: true, message: '', data: entry[0] });
  }
  if (req.method === 'POST' && url.pathname === '/turnstile') {
    const form = new URLSearchParams(await bodyOf(req));
    return json(res, 200, { success: form.get('secret') === TURNSTILE_SECRET && form.get('response') === 'human-ok' });
  }
  json(res, 404, {});
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const wechatCodes = new Map<string, [string, number]>();
  const server = http.createServer((req, res) => void handle(req, res, wechatCodes));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.GITHUB_OAUTH_URL = url;
  process.env.GITHUB_API_URL = url;
  process.env.LINUXDO_OAUTH_URL = url;
  process.env.TURNSTILE_VERIFY_URL = `${url}/turnstile`;
  return { url, wechatCodes, close: () => new Promise<void>((r) => server.close(() => r())) };
}
