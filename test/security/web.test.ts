import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createUser, login, loginAs, randomIp, restHeaders, ROOT_PASSWORD, setupRoot, trpcCaller } from '../users.ts';

/*
 * What a browser-side attacker would try: stealing or riding the session cookie,
 * cross-site writes, framing and sniffing, guessing passwords, mail bombing, stored
 * XSS through admin messages, and script injection through the site's custom head.
 */

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  proxied = await createTestApp({ trustProxy: true });
  for (const app of [t, proxied]) await setupRoot(app);
});
afterAll(async () => {
  await t.close();
  await proxied.close();
});

const cookieOf = (res: { headers: Record<string, unknown> }) => {
  const c = res.headers['set-cookie'];
  return String(Array.isArray(c) ? c[0] : c);
};

describe('session cookie', () => {
  const signIn = (app: TestApp, headers: Record<string, string> = {}) =>
    app.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'root', password: ROOT_PASSWORD },
      headers,
      remoteAddress: randomIp(),
    });

  it('is httpOnly and SameSite=Strict; Secure behind a TLS proxy (TRUST_PROXY + X-Forwarded-Proto: https)', async () => {
    const tls = cookieOf(await signIn(proxied, { 'x-forwarded-proto': 'https' }));
    expect(tls).toMatch(/HttpOnly/i);
    expect(tls).toMatch(/SameSite=Strict/i);
    expect(tls).toMatch(/;\s*Secure/i);
    const plain = cookieOf(await signIn(proxied));
    expect(plain).toMatch(/HttpOnly/i);
    expect(plain).not.toMatch(/;\s*Secure/i);
  });

  it('an untrusted client cannot claim TLS with X-Forwarded-Proto (no TRUST_PROXY)', async () => {
    const c = cookieOf(await signIn(t, { 'x-forwarded-proto': 'https' }));
    expect(c).toMatch(/HttpOnly/i);
    expect(c).not.toMatch(/;\s*Secure/i);
  });
});

describe('cross-site request forgery', () => {
  it('cookie-authenticated tRPC writes must be JSON: a form post creates nothing', async () => {
    const { session, user } = await loginAs(t, Role.Common);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/trpc/tokens.create',
        headers: { cookie: session.cookie, 'content-type': type },
        payload: type.startsWith('multipart') ? '--x--' : '{"name":"csrf"}',
        remoteAddress: randomIp(),
      });
      expect(res.statusCode).toBe(415);
    }
    const n = await t.deps.db.selectFrom('tokens').select('id').where('user_id', '=', user.id).execute();
    expect(n).toHaveLength(0);
  });

  it('REST writes with the cookie alone (no New-Api-User header) are refused with 401', async () => {
    const { session, user } = await loginAs(t, Role.Common);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { cookie: session.cookie },
      payload: { name: 'csrf' },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false });
    // A header naming another user is refused too.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { cookie: session.cookie, 'new-api-user': String(user.id + 1) },
      payload: { name: 'csrf' },
      remoteAddress: randomIp(),
    });
    expect(other.statusCode).toBe(401);
    expect(await t.deps.db.selectFrom('tokens').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
  });
});

describe('security headers', () => {
  it('API, relay and console answers forbid sniffing and framing by other sites', async () => {
    for (const url of ['/api/status', '/v1/models', '/trpc/status.get', '/']) {
      const res = await t.app.inject({ url, remoteAddress: randomIp() });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      // SDKs call the API from other origins: resources stay loadable cross-origin.
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });
});

describe('rate limits', () => {
  it('password guessing against an account is stopped with 429 from every address (other accounts unaffected)', async () => {
    const victim = await createUser(t);
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: victim.username, password: `wrong-${i}` },
        remoteAddress: ip,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even the right password waits now, from any address (issue 39: the lock is the account's); another
    // account at the guessing address signs in (the address's own limit is higher).
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: victim.username, password: victim.password },
      remoteAddress: randomIp(),
    });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
    const other = await createUser(t);
    const neighbour = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: other.username, password: other.password },
      remoteAddress: ip,
    });
    expect(neighbour.json()).toMatchObject({ success: true, data: { id: other.id } });
  });

  it('password-reset and verification mails from one address are stopped with 429', async () => {
    const ip = randomIp();
    for (const path of ['/api/reset_password', '/api/verification']) {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${path}?email=${encodeURIComponent(`someone${i}@example.com`)}`,
          remoteAddress: ip,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses, path).toContain(429);
      expect(statuses.at(-1), path).toBe(429);
    }
  });
});

describe('stored HTML', () => {
  it('message HTML is sanitised by the console helper: no scripts, handlers or javascript: links survive', async () => {
    const dom = new JSDOM('<!doctype html><html><body></body></html>');
    const g = globalThis as unknown as { window?: unknown };
    g.window = dom.window;
    try {
      // DOMPurify binds to the global window when the module loads.
      const { sanitizeHtml } = await import('../../client/lib/sanitize.ts');
      const { markdownToSafeHtml } = await import('../../client/lib/markdown.ts');
      const attacks = [
        '<img src=x onerror="alert(1)">',
        '<script>alert(1)</script><b>bold</b>',
        '<a href="javascript:alert(1)">click</a>',
        '<svg><script>alert(1)</script></svg>',
        '<iframe src="https://evil.example"></iframe>',
        '<div onmouseover="x()">hover</div>',
        '<style>body{display:none}</style>',
        '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      ];
      for (const a of attacks) {
        const out = sanitizeHtml(a);
        expect(out, a).not.toMatch(/<script|onerror|onmouseover|javascript:|<iframe|<style/i);
      }
      expect(sanitizeHtml('<b>bold</b> <a href="https://ok.example" target="_blank">ok</a>')).toBe(
        '<b>bold</b> <a href="https://ok.example" target="_blank">ok</a>',
      );
      // Markdown with raw HTML inside goes through the same filter.
      const md = markdownToSafeHtml('# Hi\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1))');
      expect(md).toContain('<h1>Hi</h1>');
      expect(md).not.toMatch(/onerror|javascript:/i);
    } finally {
      delete g.window;
    }
  });

  it('the site head HTML/JS can only be set by root', async () => {
    const admin = await loginAs(t, Role.Admin);
    const rootRow = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('role', '=', Role.Root)
      .executeTakeFirstOrThrow();
    const rootSession = restHeaders(await login(t, rootRow.username, ROOT_PASSWORD));
    const payload = { key: 'HeadHTML', value: '<script>steal()</script>' };
    const byAdmin = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: admin.headers,
      payload,
      remoteAddress: randomIp(),
    });
    // A role refusal is HTTP 200 in the envelope, even on this real-status route (api-contract §0.3).
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
    await expect(
      trpcCaller(t, { id: admin.user.id, role: Role.Admin }).options.update({ key: 'GlobalJS', value: 'steal()' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(t.deps.services.options.get('HeadHTML')).toBe('');
    expect(t.deps.services.options.get('GlobalJS')).toBe('');
    const byRoot = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: rootSession,
      payload: { key: 'HeadHTML', value: '<meta name="x-root" content="1">' },
      remoteAddress: randomIp(),
    });
    expect(byRoot.statusCode).toBe(200);
    expect(byRoot.json()).toMatchObject({ success: true });
    expect(t.deps.services.options.get('HeadHTML')).toBe('<meta name="x-root" content="1">');
  });
});
