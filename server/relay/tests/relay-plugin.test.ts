import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';

/*
 * The relay is one encapsulated Fastify plugin: its CORS and Server-Timing belong to its own
 * routes. The console's answers carry neither and never run the relay's hooks.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The hook names Fastify lists for one GET route (printRoutes with includeHooks). */
function hooksOf(path: string): string {
  const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false, method: 'GET' }).split('\n');
  const at = lines.findIndex((l) => l.includes(`── ${path} (GET)`));
  expect(at, path).toBeGreaterThanOrEqual(0);
  const own: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.includes('──')) break;
    own.push(line);
  }
  return own.join('\n');
}

describe('the relay plugin', () => {
  it('gives relay answers CORS and Server-Timing, and console answers neither', async () => {
    const origin = 'https://chat.example';
    const relay = await t.app.inject({ url: '/v1/models', headers: { origin } });
    expect(relay.statusCode).toBe(401);
    expect(relay.headers['access-control-allow-origin']).toBe('*');
    expect(relay.headers['server-timing']).toMatch(/^gateway;dur=\d/);

    const status = await t.app.inject({ url: '/api/status', headers: { origin } });
    expect(status.statusCode).toBe(200);
    expect(status.headers['access-control-allow-origin']).toBeUndefined();
    expect(status.headers['access-control-expose-headers']).toBeUndefined();
    expect(status.headers['server-timing']).toBeUndefined();
  });

  it("runs its hooks on relay routes only: the console's routes do not pay for them", () => {
    const relayHooks = hooksOf('/v1/models');
    for (const hook of ['relayCors', 'relayTimingStart', 'relayTimingStamp']) expect(relayHooks).toContain(hook);
    expect(hooksOf('/api/status')).not.toMatch(/relay/);
  });
});
