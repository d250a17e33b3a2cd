import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'real-a': 1, 'real-b': 2 }) });
});
afterAll(() => h.close());

/** A new user's token asks for `model`: its answer (or error) and the bodies the fake upstream got for it. */
async function ask(model: string, content = 'hi') {
  const user = await insertUser(h.deps);
  const token = await insertToken(h.deps, user.id);
  const before = h.fake.requests.length;
  const outcome = await h
    .client(token.key)
    .chat.completions.create({ model, messages: [{ role: 'user', content }] })
    .then(
      (answer) => ({ answer, error: undefined }),
      (error: unknown) => ({ answer: undefined, error }),
    );
  const sent = h.fake.requests.slice(before).map((q) => q.body as { model?: string; reasoning_effort?: string });
  return { user, token, ...outcome, sent, sentModels: sent.map((b) => b.model) };
}

describe('global model mapping (virtual models)', () => {
  it('serves a virtual model with the highest-priority real model the group can reach, billed as that model', async () => {
    await h.deps.services.modelMapping.update({
      smart: [
        { model: 'real-a', priorities: 10 },
        { model: 'real-b', priorities: 5 },
      ],
    });
    // Only real-b has a channel: real-a is skipped.
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['real-b'] });
    const { user, token, answer, sentModels } = await ask('smart');
    expect(answer?.choices[0].message.content).toBeTruthy();
    expect(sentModels).toEqual(['real-b']);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs[0].model_name).toBe('real-b');
    // ratio 2: (prompt + completion) * 2, so an even positive charge
    expect(Number(l.logs[0].quota)).toBeGreaterThan(0);
    expect(Number(l.logs[0].quota) % 2).toBe(0);
  });

  it('tries the next real model when every channel of the first fails, and bills the one that served', async () => {
    await setOptions(h.deps, {
      ModelRatio: JSON.stringify({ 'real-a': 1, 'real-b': 2, 'real-down': 1, 'real-up': 3 }),
    });
    await h.deps.services.modelMapping.update({
      failover: [
        { model: 'real-down', priorities: 10 },
        { model: 'real-up', priorities: 1 },
      ],
    });
    const down = await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['real-down'],
      modelMapping: { 'real-down': 'real-down+fail-502' },
    });
    const up = await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['real-up'] });
    const { user, token, answer, sentModels } = await ask('failover');
    expect(answer?.choices[0].message.content).toBeTruthy();
    expect(sentModels).toEqual(['real-down+fail-502', 'real-up']);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    // One row, for the model that answered, at its ratio; the first model's reservation went back.
    expect(l.logs.map((x) => x.model_name)).toEqual(['real-up']);
    expect(Number(l.logs[0].quota) % 3).toBe(0);
    expect(l.reservations).toEqual([]);
    expect(Number(l.user.used_quota)).toBe(l.logQuota);
    expect(JSON.parse(l.logs[0].other).admin_info.use_channel).toEqual([String(down), String(up)]);
  });

  it('does not try another model after a client error', async () => {
    await h.deps.services.modelMapping.update({
      strict: [
        { model: 'real-bad', priorities: 10 },
        { model: 'real-up', priorities: 1 },
      ],
    });
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'real-a': 1, 'real-b': 2, 'real-bad': 1, 'real-up': 3 }) });
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['real-bad'],
      modelMapping: { 'real-bad': 'x+fail-400' },
    });
    const { error, sentModels } = await ask('strict');
    expect(error).toMatchObject({ status: 400 });
    expect(sentModels).toEqual(['x+fail-400']);
  });

  it('leaves names that are not virtual alone', async () => {
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['real-a'] });
    const { error, sentModels } = await ask('real-a', 'x');
    expect(error).toBeUndefined();
    expect(sentModels).toEqual(['real-a']);
  });
});

describe('reasoning suffixes', () => {
  it('turns o-model-high into o-model with reasoning_effort high, and logs the effort', async () => {
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'real-a': 1, 'real-b': 2, 'o-model': 1 }) });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['o-model'] });
    const { user, token, error, sent } = await ask('o-model-high', 'think');
    expect(error).toBeUndefined();
    expect(sent[0]).toMatchObject({ model: 'o-model', reasoning_effort: 'high' });
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(JSON.parse(l.logs[0].other).reasoning_effort).toBe('high');
  });
});
