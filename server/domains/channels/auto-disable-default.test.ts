import path from 'node:path';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { startFakeOpenAI, type FakeUpstream } from '../../../scripts/fake-upstream/server.ts';
import { createKeptDatabase, createTestApp, type TestApp } from '../../../test/app.ts';
import { createNewApiDatabase } from '../../../test/new-api-database.ts';
import { insertToken } from '../../../test/relay-fixtures.ts';
import { createUser, login, restHeaders, setupRoot } from '../../../test/users.ts';
import { createMigrator } from '../../db/index.ts';
import { importFromSpec as importDatabase } from '../importer/import.service.ts';

/*
 * Issue 39, "dead keys are not marked on default settings": on a fresh install, with no monitoring
 * setting touched, a multi-key channel whose first key the upstream calls invalid (a 401 that quotes
 * the key) gets that key marked auto-disabled with the key masked in its reason, and every call is
 * served by the other key. An install upgraded from before keeps the switch off unless it stored it;
 * an import keeps the imported value (off when new-api never saved it: its default).
 */

const SECRET = 'sk-live-9f8e7d6c5b4a3f2e1d0c';
const DEAD = `${SECRET}+fail-401-invalid-key+leak-key`;
const GOOD = 'sk-good-0a1b2c3d4e5f6a7b';
const MODEL = 'fresh-model';

describe('a fresh install marks a dead key with no setting touched', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let base: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    fake = await startFakeOpenAI();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await setupRoot(t);
    admin = restHeaders(await login(t, 'root', 'RootPass123!'));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const rest = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(base + url, {
      method,
      headers: { ...admin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several routes, read field by field
    return (await res.json()) as { success: boolean; message: string; data: any };
  };

  it('reports the global switch on', async () => {
    const options = await rest('GET', '/api/option/');
    expect(options.data).toContainEqual({ key: 'AutomaticDisableChannelEnabled', value: 'true' });
  });

  it('marks the dead key auto-disabled with a masked reason; every call succeeds on the other key', async () => {
    // Only the model's price is set (a selling site refuses unpriced models); nothing about monitoring.
    expect(
      (await rest('PUT', '/api/option/', { key: 'ModelPrice', value: JSON.stringify({ [MODEL]: 0.01 }) })).success,
    ).toBe(true);
    const created = await rest('POST', '/api/channel/', {
      mode: 'multi_to_single',
      multi_key_mode: 'polling',
      channel: {
        type: 1,
        name: 'two keys',
        key: `${DEAD}\n${GOOD}`,
        base_url: fake.url,
        models: MODEL,
        group: 'default',
      },
    });
    expect(created).toMatchObject({ success: true });
    const list = await rest('GET', '/api/channel/?p=0&page_size=10');
    const id = (list.data.items ?? list.data).find((c: { name: string }) => c.name === 'two keys').id as number;

    const user = await createUser(t, { quota: 10_000_000 });
    const token = (await insertToken(t.deps, user.id)).key;
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).not.toContain(SECRET);
    }
    // The dead key was tried once, then never again.
    const used = fake.requests.map((r) => String(r.headers.authorization));
    expect(used.filter((a) => a.includes(SECRET))).toHaveLength(1);

    const keys = await rest('POST', '/api/channel/multi_key/manage', { channel_id: id, action: 'get_key_status' });
    expect(keys.success).toBe(true);
    const dead = keys.data.keys.find((k: { index: number }) => k.index === 0);
    expect(dead.status).toBe(3);
    expect(dead.reason).toContain('Incorrect API key provided: ***');
    expect(keys.data.keys.find((k: { index: number }) => k.index === 1).status).toBe(1);
    const channel = await rest('GET', `/api/channel/${id}`);
    expect(channel.data.status).toBe(1);
    expect(JSON.stringify([keys, channel])).not.toContain(SECRET.slice(3));
  });
});

describe('an install from before keeps behaving as before', () => {
  const previous = Object.keys(migrations)
    .sort()
    .filter((n) => n < '2026-11-28T0000-auto-disable-default')
    .at(-1)!;

  /** An install that ran an older version (`prepare`), then starts again on this one. */
  async function upgraded(prepare: (t: TestApp) => Promise<void>): Promise<boolean> {
    // The same database for both starts, on SQLite and on PostgreSQL alike.
    const kept = await createKeptDatabase();
    try {
      const old = await createTestApp({}, kept.opts);
      await prepare(old);
      const down = await (await createMigrator(old.deps.db)).migrateTo(previous);
      expect(down.error).toBeUndefined();
      await old.close();
      const now = await createTestApp({}, kept.opts);
      const on = now.deps.services.options.get('AutomaticDisableChannelEnabled');
      await now.close();
      return on;
    } finally {
      await kept.remove();
    }
  }

  it('stores the switch off for a site in use that never saved it', async () => {
    expect(await upgraded((t) => setupRoot(t).then(() => undefined))).toBe(false);
  });

  it('keeps a switch the operator saved', async () => {
    const on = await upgraded(async (t) => {
      await setupRoot(t);
      await t.deps.services.options.update('AutomaticDisableChannelEnabled', 'true');
    });
    expect(on).toBe(true);
  });

  it('leaves a site with nobody in it on the new default', async () => {
    expect(await upgraded(async () => undefined)).toBe(true);
  });
});

describe('an imported site keeps its switch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('off when new-api never saved it (its default), as imported when it did', async () => {
    const never = path.join(t.dataDir, 'never.db');
    createNewApiDatabase(never, 'new-api');
    await importDatabase(t.deps.db, never);
    await t.deps.services.options.load();
    expect(t.deps.services.options.get('AutomaticDisableChannelEnabled')).toBe(false);

    const saved = path.join(t.dataDir, 'saved.db');
    createNewApiDatabase(saved, 'new-api');
    const db = new SQLite(saved);
    db.prepare(`INSERT INTO options (key, value) VALUES ('AutomaticDisableChannelEnabled', 'true')`).run();
    db.close();
    await importDatabase(t.deps.db, saved);
    await t.deps.services.options.load();
    expect(t.deps.services.options.get('AutomaticDisableChannelEnabled')).toBe(true);
  });
});
