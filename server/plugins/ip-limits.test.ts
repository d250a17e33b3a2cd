import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';

describe('global per-IP limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ipRateLimits: { api: { count: 3, windowSeconds: 60 }, relay: { count: 2, windowSeconds: 60 } },
    });
  });
  afterAll(() => t.close());

  it('answers 429 with an empty body past the API limit, per client address', async () => {
    const call = (ip: string) => t.app.inject({ url: '/api/status', remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await call('10.0.0.1')).statusCode).toBe(200);
    const refused = await call('10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('');
    expect((await call('10.0.0.2')).statusCode).toBe(200);
  });

  it('answers 429 in OpenAI shape past the relay limit', async () => {
    const call = () =>
      t.app.inject({ url: '/v1/models', remoteAddress: '10.0.0.9', headers: { authorization: 'Bearer sk-nope' } });
    expect((await call()).statusCode).toBe(401);
    expect((await call()).statusCode).toBe(401);
    const refused = await call();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.type).toBe('rate_limit_error');
  });
});
