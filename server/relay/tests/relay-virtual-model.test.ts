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
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    const r = await h.client(token.key).chat.completions.create({
      model: 'smart',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBeTruthy();
    const sent = h.fake.requests.slice(before).map((q) => (q.body as { model?: string }).model);
    expect(sent).toEqual(['real-b']);
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
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    const r = await h.client(token.key).chat.completions.create({
      model: 'failover',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBeTruthy();
    const sent = h.fake.requests.slice(before).map((q) => (q.body as { model?: string }).model);
    expect(sent).toEqual(['real-down+fail-502', 'real-up']);
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
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    await expect(
      h.client(token.key).chat.completions.create({
        model: 'strict',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(h.fake.requests.slice(before).map((q) => (q.body as { model?: string }).model)).toEqual(['x+fail-400']);
  });

  it('leaves names that are not virtual alone', async () => {
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['real-a'] });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    await h.client(token.key).chat.completions.create({ model: 'real-a', messages: [{ role: 'user', content: 'x' }] });
    expect(h.fake.requests.slice(before).map((q) => (q.body as { model?: string }).model)).toEqual(['real-a']);
  });
});

describe('reasoning suffixes', () => {
  it('turns o-model-high into o-model with reasoning_effort high, and logs the effort', async () => {
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'real-a': 1, 'real-b': 2, 'o-model': 1 }) });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['o-model'] });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    await h.client(token.key).chat.completions.create({
      model: 'o-model-high',
      messages: [{ role: 'user', content: 'think' }],
    });
    const sent = h.fake.requests.slice(before)[0].body as { model?: string; reasoning_effort?: string };
    expect(sent).toMatchObject({ model: 'o-model', reasoning_effort: 'high' });
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(JSON.parse(l.logs[0].other).reasoning_effort).toBe('high');
  });
});
