import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '../../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../runtime.ts';

/*
 * Issue 28, "the model list lies": GET /v1/models (and Anthropic's and Gemini's model lists) offers
 * only models some enabled channel of the caller's group serves, read from the routing cache.
 * Issue 39: nor a model without a price, which every call would be refused (403) in selling mode;
 * self-use mode (everything free) lists them all. Real SQLite file, fake upstream, the official SDKs
 * over loopback.
 */

describe('model lists offer what enabled channels of the group serve', () => {
  let h: RelayHarness;
  let key: string;
  let disabledId: number;

  const ids = async (k = key) => {
    const page = await h.client(k).models.list();
    return page.data.map((m) => m.id).sort();
  };

  beforeAll(async () => {
    h = await startRelayHarness();
    const base = h.fake.url.replace(/\/v1$/, '');
    // Every served model has a price except local-unpriced; vip is a group this operator created.
    await setOptions(h.deps, {
      ModelRatio: JSON.stringify({ 'local-a': 1, 'local-b': 1, 'vip-only': 1 }),
      ModelPrice: JSON.stringify({ 'local-c': 0.01 }),
      GroupRatio: JSON.stringify({ default: 1, vip: 1 }),
    });
    await insertChannel(h.deps, { name: 'main', baseUrl: base, models: ['local-a', 'local-b', 'local-unpriced'] });
    disabledId = await insertChannel(h.deps, { name: 'second', baseUrl: base, models: ['local-c', 'local-a'] });
    // Another group's channel: its model is not this caller's to see.
    await insertChannel(h.deps, { name: 'vip', baseUrl: base, models: ['vip-only'], groups: ['vip'] });
    const user = await insertUser(h.deps, { group: 'default' });
    key = (await insertToken(h.deps, user.id, { unlimited: true })).key;
  });
  afterAll(() => h.close());

  it("lists the group's served models, not another group's", async () => {
    expect(await ids()).toEqual(['local-a', 'local-b', 'local-c']);
  });

  it('leaves out a served model without a price, which a call is refused, until it has one', async () => {
    const client = h.client(key);
    expect(await ids()).not.toContain('local-unpriced');
    await expect(client.models.retrieve('local-unpriced')).rejects.toMatchObject({ status: 404 });
    const call = client.chat.completions.create({
      model: 'local-unpriced',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(call).rejects.toMatchObject({ status: 403 });

    await setOptions(h.deps, { ModelPrice: JSON.stringify({ 'local-c': 0.01, 'local-unpriced': 0.02 }) });
    expect(await ids()).toEqual(['local-a', 'local-b', 'local-c', 'local-unpriced']);
    expect((await client.models.retrieve('local-unpriced')).id).toBe('local-unpriced');
    await setOptions(h.deps, { ModelPrice: JSON.stringify({ 'local-c': 0.01 }) });
    expect(await ids()).toEqual(['local-a', 'local-b', 'local-c']);
  });

  it('lists every served model in self-use mode, and to a user who accepts models without a price', async () => {
    await setOptions(h.deps, { SelfUseModeEnabled: 'true' });
    try {
      expect(await ids()).toEqual(['local-a', 'local-b', 'local-c', 'local-unpriced']);
    } finally {
      await setOptions(h.deps, { SelfUseModeEnabled: 'false' });
    }
    expect(await ids()).not.toContain('local-unpriced');

    const accepting = await insertUser(h.deps, { setting: { accept_unset_model_ratio_model: true } });
    const acceptingKey = (await insertToken(h.deps, accepting.id, { unlimited: true })).key;
    expect(await ids(acceptingKey)).toEqual(['local-a', 'local-b', 'local-c', 'local-unpriced']);
  });

  it("drops a disabled channel's models (those another enabled channel serves stay)", async () => {
    await h.deps.services.channels.setStatus([disabledId], ChannelStatus.ManuallyDisabled);
    await relayRuntimeOf(h.deps)!.routing.reload();
    expect(await ids()).toEqual(['local-a', 'local-b']);
    const gone = h.client(key).models.retrieve('local-c');
    await expect(gone).rejects.toMatchObject({ status: 404 });

    await h.deps.services.channels.setStatus([disabledId], ChannelStatus.Enabled);
    await relayRuntimeOf(h.deps)!.routing.reload();
    expect(await ids()).toEqual(['local-a', 'local-b', 'local-c']);
  });

  it('narrows to a token limit, and never offers a limit no channel serves', async () => {
    const user = await insertUser(h.deps, { group: 'default' });
    const limited = await insertToken(h.deps, user.id, { unlimited: true, modelLimits: ['local-b', 'gpt-4.1'] });
    expect(await ids(limited.key)).toEqual(['local-b']);
  });

  it("shows the vip group's caller only the vip channel's model", async () => {
    const vip = await insertUser(h.deps, { group: 'vip' });
    const vipKey = (await insertToken(h.deps, vip.id, { unlimited: true })).key;
    expect(await ids(vipKey)).toEqual(['vip-only']);
  });

  it("gives Anthropic's and Gemini's clients the same list in their shapes", async () => {
    const origin = h.baseURL.replace(/\/v1$/, '');
    const anthropic = new Anthropic({ apiKey: key, baseURL: origin, maxRetries: 0 });
    const names: string[] = [];
    for await (const m of anthropic.models.list()) names.push(m.id);
    expect(names.sort()).toEqual(['local-a', 'local-b', 'local-c']);

    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: origin } });
    const pager = await gemini.models.list();
    const geminiNames: string[] = [];
    for await (const m of pager) geminiNames.push(String(m.name));
    expect(geminiNames.sort()).toEqual(['models/local-a', 'models/local-b', 'models/local-c']);
  });
});
