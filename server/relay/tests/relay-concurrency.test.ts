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
  h = await startRelayHarness({ latencyMs: 5 });
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'par-model': 1 }),
    CompletionRatio: JSON.stringify({ 'par-model': 2 }),
  });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['par-model'] });
});
afterAll(async () => {
  await h.close();
});

describe('parallel requests against a small balance', () => {
  it('never serves without quota and never takes a balance below zero', async () => {
    const user = await insertUser(h.deps, { quota: 100_000_000 });
    const body = { model: 'par-model', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 5 };
    // Reservation upper bound: (prompt estimate + 5 * 2) * 1; the fake answers 5 completion tokens.
    const probeToken = await insertToken(h.deps, user.id, { unlimited: true });
    const probe = await h.client(probeToken.key).chat.completions.create(body);
    const perCall = probe.usage!.prompt_tokens + 5 * 2;
    await h.drain();

    const budget = perCall * 100 + Math.floor(perCall / 2);
    const token = await insertToken(h.deps, user.id, { remainQuota: budget });
    const client = h.client(token.key);
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => client.chat.completions.create(body)));
    const served = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 403 });
    expect(served).toBeLessThanOrEqual(100);
    expect(served).toBeGreaterThanOrEqual(90);

    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    const tokenLogs = l.logs.filter((x) => Number(x.token_id) === token.id);
    expect(tokenLogs).toHaveLength(served);
    const tokenUsed = tokenLogs.reduce((s, x) => s + Number(x.quota), 0);
    expect(Number(l.token!.used_quota)).toBe(tokenUsed);
    expect(Number(l.token!.remain_quota)).toBe(budget - tokenUsed);
    expect(Number(l.token!.remain_quota)).toBeGreaterThanOrEqual(0);
    expect(Number(l.user.used_quota)).toBe(l.logQuota);
    expect(Number(l.user.quota)).toBe(100_000_000 - l.logQuota);
    expect(l.reservations).toHaveLength(0);
  });
});
