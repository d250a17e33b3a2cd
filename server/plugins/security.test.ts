import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

describe('web security', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = path.join(process.cwd(), 'node_modules', '.cache', `security-test-${process.pid}`);
    mkdirSync(dist, { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Switchyard</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestApp({ clientDist: dist });
    const o = t.deps.services.options;
    await o.update('SystemName', 'Acme <AI>');
    await o.update(
      'HeadHTML',
      '<script src="https://stats.example.com/a.js"></script><script>window.tracked = 1;</script>',
    );
    await o.update('GlobalJS', 'console.log("hi")');
    await o.update('GlobalCSS', 'body { color: red } </style><script>alert(1)</script>');
  });
  afterAll(() => t.close());

  it('serves the console with the operator branding and a CSP that allows exactly their code', async () => {
    const res = await t.app.inject('/app/tokens');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Acme &lt;AI&gt;</title>');
    expect(res.body).toContain('<script id="switchyard-global-js">console.log("hi")</script>');
    // CSS cannot close its element and smuggle a script in.
    expect(res.body).not.toContain('</style><script>alert(1)');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('https://stats.example.com');
    expect(csp).toContain(hash('window.tracked = 1;'));
    expect(csp).toContain(hash('console.log("hi")'));
    expect(csp).not.toContain("'unsafe-inline' 'self'"); // scripts are never unsafe-inline
    expect(csp).toMatch(/script-src [^;]*/);
    expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain('unsafe-inline');
  });

  it('sends security headers on API answers too', async () => {
    const res = await t.app.inject('/api/status');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    // The relay's answers as well, also the ones it writes on the raw response.
    const relay = await t.app.inject('/v1/models');
    expect(relay.statusCode).toBe(401);
    expect(relay.headers['x-content-type-options']).toBe('nosniff');
    expect(relay.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('refuses console API writes that are not JSON (cross-site form posts)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(415);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(ok.statusCode).toBe(200);
  });
});
