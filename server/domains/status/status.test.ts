import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';

describe('status and the /api surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the status object with setup not yet done', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.setup).toBe(false);
    expect(body.data.quota_per_unit).toBe(500000);
    expect(body.data.system_name).toBe('Switchyard');
    expect(Array.isArray(body.data.chats)).toBe(true);
  });

  it('treats a trailing slash as the same route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status/' });
    expect(res.statusCode).toBe(200);
  });

  it('answers unknown /api paths with 404 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Invalid URL (GET /api/nope)' });
  });

  it('refuses the option list without a login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/option/' });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });
});

describe('JSON bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('treats an empty body sent as JSON as no body, and malformed JSON as a refusal envelope', async () => {
    const empty = await t.app.inject({
      method: 'GET',
      url: '/api/user/logout',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({
      success: false,
      message: '无效的参数：请求体不是合法的 JSON',
      // Ours: the parser's own words, for the console's "details" disclosure (issue 31).
      detail: expect.stringContaining('FST_ERR_CTP_INVALID_JSON_BODY'),
    });
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}, "username": "a", "password": "b"}',
    });
    expect(poisoned.statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
