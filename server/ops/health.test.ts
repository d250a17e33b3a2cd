import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: 'metrics-secret' });
  });
  afterAll(() => t.close());

  it('answers liveness and readiness with the database type', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(t.deps.dbType);
  });

  it('guards /metrics with the metrics token and serves Prometheus text with it', async () => {
    expect((await t.app.inject('/metrics')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(403);
    t.deps.metrics.relayRequests.inc({ model: 'gpt-4o-mini', channel: '1', status: '200' });
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-secret' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('switchyard_relay_requests_total{model="gpt-4o-mini",channel="1",status="200"} 1');
    expect(res.body).toContain('switchyard_active_streams');
  });
});
