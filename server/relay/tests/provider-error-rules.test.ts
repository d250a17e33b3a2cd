import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../scripts/fake-upstream/server.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { startAnthropic } from '../../../test/provider-fixtures.ts';

/*
 * The retry and dead-key rules a provider adds to the relay's own (relay.md §4), declared
 * by its adapter: a 400 from an Anthropic channel is worth another channel; a 403 from a
 * Gemini channel means the key is dead. (An OpenAI channel's 400 is final: relay-retry.test.ts.)
 */

let h: RelayHarness;
let anthropic: FakeUpstream;
let gemini: FakeUpstream;

beforeAll(async () => {
  h = await startRelayHarness();
  anthropic = await startAnthropic();
  gemini = await startFakeGemini();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'ant-400': 1, 'gem-403': 1 }),
    RetryTimes: '2',
    AutomaticDisableChannelEnabled: 'true',
    // No keyword may decide it: the 403 alone must.
    AutomaticDisableKeywords: '',
  });
});
afterAll(async () => {
  await h.close();
  await anthropic.close();
  await gemini.close();
});

const channelRow = (id: number) =>
  h.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function callAs(model: string) {
  const user = await insertUser(h.deps);
  const token = await insertToken(h.deps, user.id);
  const r = await h.client(token.key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  await h.drain();
  const l = await ledger(h.deps, user.id, token.id);
  return { r, useChannel: JSON.parse(l.logs[0].other).admin_info.use_channel as string[] };
}

describe('provider error rules', () => {
  it('a 400 from an Anthropic channel is retried on the next channel, which answers', async () => {
    const claude = await insertChannel(h.deps, {
      type: 14,
      baseUrl: anthropic.url,
      models: ['ant-400'],
      priority: 10,
      modelMapping: { 'ant-400': 'claude+fail-400' },
    });
    const openai = await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['ant-400'], priority: 0 });
    const { r, useChannel } = await callAs('ant-400');
    expect(r.choices[0].message.content).toBeTruthy();
    expect(useChannel).toEqual([String(claude), String(openai)]);
    // A bad request is no dead key: the Anthropic channel stays in service.
    expect((await channelRow(claude)).status).toBe(1);
  });

  it('a 403 from a Gemini channel disables it (auto_ban) and the request is served elsewhere', async () => {
    const gem = await insertChannel(h.deps, {
      type: 24,
      baseUrl: gemini.url,
      models: ['gem-403'],
      priority: 10,
      modelMapping: { 'gem-403': 'gemini+fail-403' },
    });
    const openai = await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['gem-403'], priority: 0 });
    const { useChannel } = await callAs('gem-403');
    expect(useChannel).toEqual([String(gem), String(openai)]);
    const row = await channelRow(gem);
    expect(row.status).toBe(3);
    expect(JSON.parse(row.other_info).status_reason).toContain('Permission denied');
  });
});
