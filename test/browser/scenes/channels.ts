import OpenAI from 'openai';
import { startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import type { AppDeps } from '../../../server/context.ts';
import { updateChannelInput } from '../../../shared/schemas/channels.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../relay-fixtures.ts';
import type { Offender, Scene, SceneRoute } from '../layout-checks.ts';

/*
 * The channel list after tests (test/browser/channel-health.test.ts, scene `channel-health`) and a
 * multi-key channel's key list (test/browser/multi-key.test.ts, scene `channel-keys`).
 */

/** The channel table scrolls sideways inside itself on a phone, by design. */
export const channelTableScrolls = (o: Offender) => o.tag.endsWith('(scrolls sideways)') && /^ID/.test(o.text);

/** A channel nobody answers on (loopback port 9 refuses) and one on the fake upstream, both untested. */
export async function seedChannelHealth(deps: AppDeps, fakeUrl: string) {
  const deadId = await insertChannel(deps, {
    name: 'Dead upstream',
    baseUrl: 'http://127.0.0.1:9',
    models: ['m-dead'],
  });
  const liveId = await insertChannel(deps, {
    name: 'Live upstream',
    baseUrl: fakeUrl.replace(/\/v1$/, ''),
    models: ['m-live'],
  });
  return { deadId, liveId };
}

export const channelHealthRoutes: SceneRoute[] = [
  {
    route: '/admin/channels',
    name: 'channels-after-failed-test',
    ready: (page) => page.locator('[data-state="failed"]').first().waitFor({ timeout: 60_000 }),
    allow: channelTableScrolls,
  },
];

export const channelHealthScene: Scene = {
  about: 'the channel list after a failed and a passing test',
  async setUp(gateway) {
    const fake = await startFakeOpenAI();
    const deps = gateway.test.deps;
    const { deadId, liveId } = await seedChannelHealth(deps, fake.url);
    await deps.services.channels.testChannel(deadId);
    await deps.services.channels.testChannel(liveId);
    return { routes: channelHealthRoutes, close: () => fake.close() };
  },
};

/** Four keys, the first of which the fake upstream refuses with a 401. */
export const POOL_KEYS = [
  'sk-pool-dead-fail-401-invalid-key-0001',
  'sk-pool-good-key-aaaaaaaaaaaa-0002',
  'sk-pool-good-key-bbbbbbbbbbbb-0003',
  'sk-pool-good-key-cccccccccccc-0004',
].join('\n');

/**
 * One key of each state on channel `id`: auto-disabled with its reason (real calls meet the dead key),
 * disabled by an admin (the third), enabled.
 */
export async function keysOfEachState(deps: AppDeps, baseUrl: string, id: number) {
  const user = await insertUser(deps);
  const token = await insertToken(deps, user.id);
  await deps.services.channels.manageKeys(id, 'enable_all_keys');
  await deps.services.channels.update(updateChannelInput.parse({ id, multi_key_mode: 'polling' }));
  await deps.services.channels.manageKeys(id, 'disable_key', 2);
  const sdk = new OpenAI({ apiKey: token.key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  for (let i = 0; i < 3; i++)
    await sdk.chat.completions.create({ model: 'pool-model', messages: [{ role: 'user', content: 'hi' }] });
}

/** The channel list, then the first channel's keys opened. */
export const channelKeysRoutes: SceneRoute[] = [
  {
    route: '/admin/channels',
    name: 'channel-keys',
    ready: (page) => page.getByTestId('key-count').first().waitFor(),
    after: async (page) => {
      await page.getByTestId('key-count').first().click();
      await page.getByTestId('key-row').first().waitFor();
    },
    allow: channelTableScrolls,
  },
];

export const channelKeysScene: Scene = {
  about: "a multi-key channel's keys: auto-disabled, disabled by an admin, enabled",
  async setUp(gateway) {
    const fake = await startFakeOpenAI();
    const deps = gateway.test.deps;
    await setOptions(deps, { ModelRatio: JSON.stringify({ 'pool-model': 1 }), AutomaticDisableChannelEnabled: 'true' });
    const id = await insertChannel(deps, {
      name: 'Key pool',
      key: POOL_KEYS,
      baseUrl: fake.url,
      models: ['pool-model'],
      setting: { multi_key_mode: 'polling' },
    });
    await keysOfEachState(deps, gateway.baseUrl, id);
    return { routes: channelKeysRoutes, close: () => fake.close() };
  },
};
