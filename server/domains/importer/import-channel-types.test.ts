import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../scripts/fake-upstream/server.ts';
import { type ChannelTypeEntry, TYPE_ANSWER, typeLabel } from '../../../test/conformance/channel-types/entry.ts';
import { CHANNEL_TYPE_ENTRIES } from '../../../test/conformance/channel-types/index.ts';
import { relayRuntimeOf } from '../../relay/runtime.ts';
import { type RelayHarness, setOptions, startRelayHarness } from '../../../test/relay-fixtures.ts';
import { importFromSpec as importDatabase } from './import.service.ts';
import { createNewApiDatabase, type NewApiChannel } from '../../../test/new-api-database.ts';

/*
 * Issue #30: a new-api database holding one channel of every type with an adapter of its own (the
 * channel-type suite's entries: key, `other` and settings exactly as new-api stores them) imports,
 * and every channel relays with no edit, for the token imported with it.
 */

/** The imported token of the fixture database (alice's, limited to its models by new-api's model_limits). */
const IMPORTED_KEY = 'a'.repeat(24) + 'B'.repeat(24);
const modelOf = (e: ChannelTypeEntry) => `imported-${e.type}`;

let h: RelayHarness;
const fakes = new Map<number, FakeUpstream>();

beforeAll(async () => {
  h = await startRelayHarness();
  const channels: NewApiChannel[] = [];
  for (const [i, e] of CHANNEL_TYPE_ENTRIES.entries()) {
    const fake = await e.start();
    fakes.set(e.type, fake);
    const c = e.channel(fake.url);
    channels.push({
      id: 100 + i,
      type: e.type,
      key: c.key,
      name: `imported ${typeLabel(e.type)}`,
      models: modelOf(e),
      base_url: c.baseUrl ?? fake.url,
      other: c.other ?? '',
      model_mapping: JSON.stringify({ [modelOf(e)]: e.models.plain }),
      setting: c.setting ? JSON.stringify(c.setting) : '',
      group: 'default,vip',
    });
  }
  const file = path.join(h.t.dataDir, 'new-api-channels.db');
  createNewApiDatabase(file, 'new-api', channels);
  await importDatabase(h.deps.db, file);
  // What the import-cli does after importing: the running gateway reads the new rows.
  await h.deps.services.options.load();
  await relayRuntimeOf(h.deps)!.routing.reload();
  const models = CHANNEL_TYPE_ENTRIES.map(modelOf);
  await setOptions(h.deps, { ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))) });
  // The imported token may only use the models new-api allowed it: these are added as an admin would.
  await h.deps.db.updateTable('tokens').set({ model_limits_enabled: 0 }).where('key', '=', IMPORTED_KEY).execute();
});

afterAll(async () => {
  await h?.close();
  await Promise.all([...fakes.values()].map((f) => f.close()));
});

describe('a new-api database with a channel of every provider type', () => {
  it('imports every channel with its type, key and other unchanged', async () => {
    const rows = await h.deps.db.selectFrom('channels').select(['type', 'key', 'other', 'status']).execute();
    for (const e of CHANNEL_TYPE_ENTRIES) {
      const c = e.channel(fakes.get(e.type)!.url);
      expect(
        rows.find((r) => r.type === e.type),
        typeLabel(e.type),
      ).toMatchObject({
        key: c.key,
        other: c.other ?? '',
        status: 1,
      });
    }
  });

  for (const e of CHANNEL_TYPE_ENTRIES)
    it(`${typeLabel(e.type)} relays for the imported token`, async () => {
      const r = await h.client(IMPORTED_KEY).chat.completions.create({
        model: modelOf(e),
        messages: [{ role: 'user', content: 'Say the five words.' }],
      });
      expect(r.choices[0].message.content).toBe(TYPE_ANSWER);
      expect(fakes.get(e.type)!.requests.some(e.isGeneration)).toBe(true);
    });
});
