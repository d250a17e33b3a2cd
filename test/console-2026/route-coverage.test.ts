import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { routeCoverage } from './route-coverage.ts';

/*
 * Every /api route of today's new-api router (test/console-2026/new-api-routes.ts, recorded from its
 * public source) has a route here: served by a feature, or answered "not available" in the shape
 * its caller reads (docs/new-api-contract.md). A console never meets a 404 for a call it makes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

describe("today's new-api /api routes", () => {
  it('all have a route in Switchyard', () => {
    const { missing, total } = routeCoverage(t.app);
    expect(total).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });
});
