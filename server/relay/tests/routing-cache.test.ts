import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel } from '../../../test/relay-fixtures.ts';
import { createRoutingCache } from '../routing-cache.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('routing cache', () => {
  it('stops routing to a channel this instance disabled at once, even with a reload of the old state under way', async () => {
    const a = await insertChannel(t.deps, { name: 'a', baseUrl: 'http://127.0.0.1:9', models: ['m-forget'] });
    const b = await insertChannel(t.deps, { name: 'b', baseUrl: 'http://127.0.0.1:9', models: ['m-forget'] });
    const routing = createRoutingCache(t.deps);
    await routing.reload();
    const ids = () => routing.candidates('default', 'm-forget').map((c) => c.channel.id);
    expect(ids().sort()).toEqual([a, b].sort());

    // A reload that read the database before the channel was disabled finishes after forget():
    // its stale result must not bring the channel back.
    const stale = routing.reload();
    routing.forget(a);
    expect(ids()).toEqual([b]);
    expect(routing.channel(a)).toBeUndefined();
    await stale;
    expect(ids()).toEqual([b]);
    routing.close();
  });
});
