import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChannelTestResult } from '../../../shared/channel-test-result.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { readChannelCalls, upsertChannelCalls } from './channel-calls.repo.ts';

/*
 * Issue 45, "a channel whose one test failed stays 测试失败 while it serves calls": the console's channel
 * list carries how the relay's latest calls on each channel went, beside its last test. Real relay calls
 * through the OpenAI SDK against the fake upstream on loopback, a real SQLite file.
 */

let h: RelayHarness;
let key: string;
const good = 'gpt-4o-mini';
const failing = 'gpt-4o-mini+fail-500';
const clientFault = 'gpt-4o-mini+fail-400';

beforeAll(async () => {
  h = await startRelayHarness();
  const user = await insertUser(h.deps);
  key = (await insertToken(h.deps, user.id, { unlimited: true })).key;
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ [good]: 1, [failing]: 1, [clientFault]: 1 }) });
});
afterAll(async () => {
  await h.close();
});

const listed = async (id: number) => {
  const page = await h.deps.services.channels.consoleList({ page: 1, pageSize: 100, idSort: false, tagMode: false });
  return page.items.find((c) => c.id === id)!;
};
const call = (model: string) =>
  h
    .client(key)
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => 'ok',
      (e: { status?: number }) => e.status,
    );

describe('the channel list shows the latest relayed calls beside the last test', () => {
  it('a failed test followed by a served call: the call is later and went well', async () => {
    const id = await insertChannel(h.deps, { name: 'recovered', baseUrl: h.fake.url, models: [good, failing] });
    const test = await h.deps.services.channels.testChannel(id, failing);
    expect(test.ok).toBe(false);
    expect(await call(good)).toBe('ok');

    const row = await listed(id);
    expect(readChannelTestResult(row.test_result)?.ok).toBe(false);
    // Shown before the batch is written (this instance's calls lie over the stored ones)...
    expect(row.last_calls.ok_at).toBeGreaterThanOrEqual(row.test_time);
    expect(row.last_calls.failed_at).toBe(0);
    // ...and nothing was written per request: the row appears with the batch.
    expect(await readChannelCalls(h.deps.db, [id])).toEqual([]);
    await h.drain();
    expect((await readChannelCalls(h.deps.db, [id]))[0]).toMatchObject({ channel_id: id, failed_at: 0 });
    expect((await h.deps.services.channels.consoleGet(id)).last_calls.ok_at).toBe(row.last_calls.ok_at);
  });

  it('a good test followed by a failing call: the failure is later, with the upstream status and words', async () => {
    const id = await insertChannel(h.deps, {
      name: 'broke',
      baseUrl: h.fake.url,
      models: [good, failing],
      autoBan: false,
    });
    expect((await h.deps.services.channels.testChannel(id, good)).ok).toBe(true);
    expect(await call(failing)).toBe(500);

    const row = await listed(id);
    expect(readChannelTestResult(row.test_result)?.ok).toBe(true);
    expect(row.last_calls.failed_at).toBeGreaterThanOrEqual(row.test_time);
    expect(row.last_calls.ok_at).toBe(0);
    expect(row.last_calls.failure?.status).toBe(500);
    expect(row.last_calls.failure?.message).not.toBe('');
  });

  it("a client's bad request (400) says nothing about the channel", async () => {
    const id = await insertChannel(h.deps, { name: 'fine', baseUrl: h.fake.url, models: [clientFault] });
    expect(await call(clientFault)).toBe(400);
    expect((await listed(id)).last_calls).toEqual({ ok_at: 0, failed_at: 0, failure: null });
  });

  it('several instances writing the same channel: the later time wins, whoever writes last', async () => {
    const id = 9_999;
    const newer = { channelId: id, okAt: 200, failedAt: 150, failure: '{"status":502,"message":"newer"}' };
    const older = { channelId: id, okAt: 100, failedAt: 120, failure: '{"status":500,"message":"older"}' };
    await upsertChannelCalls(h.deps.db, [newer]);
    await upsertChannelCalls(h.deps.db, [older]);
    expect((await readChannelCalls(h.deps.db, [id]))[0]).toMatchObject({ ok_at: 200, failed_at: 150 });
    expect((await readChannelCalls(h.deps.db, [id]))[0].failure).toContain('newer');
  });
});
