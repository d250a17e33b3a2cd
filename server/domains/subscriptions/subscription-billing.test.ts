import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import { planFields } from '../../../shared/schemas/subscriptions.ts';
import { nowSeconds } from '../../db/time.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { resetSubscriptionPeriod } from './period.service.ts';

/*
 * Which pool pays a relayed call (issue 32), through the OpenAI SDK against the fake upstream: a live
 * subscription's pool, the wallet, or a refusal, as the user's billing preference says; every charge a
 * consume line that names its pool; a pool never below empty however many calls race; a period renewed
 * once whoever finds it due; an ended or cancelled subscription no longer paying.
 */

let h: RelayHarness;
const PRICE = 2_000; // test-fixed: ModelPrice 0.004 × QuotaPerUnit 500,000, group ratio 1
const ROOT = { id: 1, role: Role.Root };

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify({ 'test-fixed': 0.004 }),
    GroupRatio: JSON.stringify({ default: 1 }),
  });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['test-fixed'] });
});
afterAll(() => h.close());

const subs = () => h.deps.services.subscriptions;
async function planOf(over: Record<string, unknown>) {
  const fields = planFields.parse({ title: 'P', duration_unit: 'day', duration_value: 30, ...over });
  return subs().plans.create({ from: 'new-api', fields });
}
async function payer(wallet: number, preference?: string) {
  const user = await insertUser(h.deps, {
    quota: wallet,
    setting: preference ? { billing_preference: preference } : {},
  });
  const token = await insertToken(h.deps, user.id, { unlimited: true });
  return { user, token, client: h.client(token.key) };
}
const call = (client: ReturnType<RelayHarness['client']>) =>
  client.chat.completions.create({ model: 'test-fixed', messages: [{ role: 'user', content: 'hi' }] });
const subRow = (userId: number) =>
  h.deps.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
/** A row changed behind the services' back: tell the relay's index, as a write on another instance would. */
async function changedBehind(userId: number) {
  h.deps.bus.publish('subscriptions', String(userId));
  await new Promise((r) => setTimeout(r, 50));
}
const consumeLines = async (userId: number) =>
  (await ledger(h.deps, userId, 0)).logs.filter((l) => l.type === LogType.Consume);

describe('a live subscription pays before the wallet (subscription_first, the default)', () => {
  it('spends the pool, leaves the wallet, and logs each call as paid by the subscription', async () => {
    const plan = await planOf({ total_amount: 10 * PRICE });
    const { user, client } = await payer(1_000_000);
    const granted = await subs().users.grant(ROOT, user.id, plan.id);
    for (let i = 0; i < 3; i++) await call(client);
    await h.drain();
    const l = await ledger(h.deps, user.id, 0);
    expect(Number(l.user.quota)).toBe(1_000_000);
    expect(Number(l.user.used_quota)).toBe(3 * PRICE);
    expect(Number(l.user.request_count)).toBe(3);
    expect(Number((await subRow(user.id)).amount_used)).toBe(3 * PRICE);
    const lines = await consumeLines(user.id);
    expect(lines.map((x) => Number(x.quota))).toEqual([PRICE, PRICE, PRICE]);
    // Each row names the plan that paid (issue 39), in new-api's fields and in the text its console shows.
    for (const x of lines) {
      expect(JSON.parse(x.other ?? '{}')).toMatchObject({
        billing_source: 'subscription',
        subscription_id: granted.id,
        subscription_plan_id: plan.id,
        subscription_plan_title: 'P',
      });
      expect(x.content).toMatch(/，由订阅套餐「P」支付$/);
    }
    expect(l.reservations).toHaveLength(0);
  });

  it('falls to the wallet when the pool is spent; subscription_only refuses instead; wallet_only never uses it', async () => {
    const plan = await planOf({ total_amount: PRICE });
    const first = await payer(1_000_000);
    await subs().users.grant(ROOT, first.user.id, plan.id);
    await call(first.client); // the whole pool
    await call(first.client); // the wallet
    await h.drain();
    expect(Number((await subRow(first.user.id)).amount_used)).toBe(PRICE);
    expect(Number((await ledger(h.deps, first.user.id, 0)).user.quota)).toBe(1_000_000 - PRICE);
    // The wallet-paid row does not claim a plan.
    const [byPool, byWallet] = await consumeLines(first.user.id);
    expect(byPool.content).toContain('由订阅套餐');
    expect(byWallet.content).not.toContain('订阅');
    expect(JSON.parse(byWallet.other ?? '{}')).not.toHaveProperty('billing_source');

    const only = await payer(1_000_000, 'subscription_only');
    await subs().users.grant(ROOT, only.user.id, plan.id);
    await call(only.client);
    await expect(call(only.client)).rejects.toMatchObject({ status: 403 });
    await h.drain();
    expect(Number((await ledger(h.deps, only.user.id, 0)).user.quota)).toBe(1_000_000);

    const walletOnly = await payer(1_000_000, 'wallet_only');
    await subs().users.grant(ROOT, walletOnly.user.id, plan.id);
    await call(walletOnly.client);
    await h.drain();
    expect(Number((await subRow(walletOnly.user.id)).amount_used)).toBe(0);
    expect(Number((await ledger(h.deps, walletOnly.user.id, 0)).user.quota)).toBe(1_000_000 - PRICE);
  });

  it('wallet_first pays from the wallet and turns to the pool only when the wallet is short', async () => {
    const plan = await planOf({ total_amount: 10 * PRICE });
    const { user, client } = await payer(PRICE, 'wallet_first');
    await subs().users.grant(ROOT, user.id, plan.id);
    await call(client);
    await call(client);
    await h.drain();
    expect(Number((await ledger(h.deps, user.id, 0)).user.quota)).toBe(0);
    expect(Number((await subRow(user.id)).amount_used)).toBe(PRICE);
  });

  it('never takes a pool below empty, however many calls race for it', async () => {
    const plan = await planOf({ total_amount: 5 * PRICE });
    const { user, client } = await payer(0, 'subscription_only');
    await subs().users.grant(ROOT, user.id, plan.id);
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => call(client)));
    await h.drain();
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(5);
    const row = await subRow(user.id);
    expect(Number(row.amount_used)).toBe(5 * PRICE);
    expect((await consumeLines(user.id)).reduce((s, x) => s + Number(x.quota), 0)).toBe(5 * PRICE);
  });

  it('a limited token paying from a plan: calls racing their settlements never deadlock, token and pool agree', async () => {
    const plan = await planOf({ total_amount: 40 * PRICE });
    const user = await insertUser(h.deps, { quota: 0, setting: { billing_preference: 'subscription_only' } });
    const token = await insertToken(h.deps, user.id, { remainQuota: 30 * PRICE });
    await subs().users.grant(ROOT, user.id, plan.id);
    const client = h.client(token.key);
    // Waves of calls whose reservations (token, then pool) meet the earlier waves' settlements (the same rows).
    for (let wave = 0; wave < 4; wave++) {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => call(client)));
      expect(
        results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      ).toEqual([]);
    }
    await h.drain();
    expect(Number((await subRow(user.id)).amount_used)).toBe(24 * PRICE);
    const l = await ledger(h.deps, user.id, token.id);
    expect(Number(l.token!.remain_quota)).toBe(6 * PRICE);
    expect(l.logs.filter((x) => x.type === LogType.Consume).reduce((s, x) => s + Number(x.quota), 0)).toBe(24 * PRICE);
  });
});

describe('periods and endings', () => {
  it('renews a due period once, whoever finds it (calls, the timer, racing resets), with one ledger line', async () => {
    const plan = await planOf({ total_amount: 2 * PRICE, quota_reset_period: 'daily' });
    const { user, client } = await payer(0, 'subscription_only');
    const g = await subs().users.grant(ROOT, user.id, plan.id);
    await call(client);
    await call(client);
    await expect(call(client)).rejects.toMatchObject({ status: 403 });
    // The period ends: the reset was due a second ago.
    const due = nowSeconds() - 1;
    await h.deps.db.updateTable('user_subscriptions').set({ next_reset_time: due }).where('id', '=', g.id).execute();
    await changedBehind(user.id);
    const now = nowSeconds();
    const racing = await Promise.all([
      call(client),
      ...Array.from({ length: 4 }, () =>
        resetSubscriptionPeriod(h.deps.db, h.deps.services.options, g.id, due, now, async () => 'P'),
      ),
      h.deps.services.subscriptions.users.maintain(now),
    ]);
    expect(racing[0]).toHaveProperty('choices');
    await h.drain();
    const resets = (await ledger(h.deps, user.id, 0)).logs.filter(
      (l) => l.type === LogType.System && (l.content ?? '').startsWith('订阅额度重置'),
    );
    expect(resets).toHaveLength(1);
    expect(Number(resets[0].quota)).toBe(2 * PRICE);
    const row = await subRow(user.id);
    expect(Number(row.amount_used)).toBe(PRICE);
    expect(Number(row.next_reset_time)).toBeGreaterThan(now);
    expect(Number(row.last_reset_time)).toBeGreaterThanOrEqual(due);
  });

  it('an ended plan stops paying and is marked expired; a cancelled one stops at once', async () => {
    const plan = await planOf({ total_amount: 10 * PRICE });
    const ended = await payer(1_000_000);
    const g = await subs().users.grant(ROOT, ended.user.id, plan.id);
    await h.deps.db
      .updateTable('user_subscriptions')
      .set({ end_time: nowSeconds() - 1 })
      .where('id', '=', g.id)
      .execute();
    await changedBehind(ended.user.id);
    await call(ended.client);
    await h.drain();
    expect(Number((await subRow(ended.user.id)).amount_used)).toBe(0);
    expect(Number((await ledger(h.deps, ended.user.id, 0)).user.quota)).toBe(1_000_000 - PRICE);
    await h.deps.services.subscriptions.users.maintain();
    expect((await subRow(ended.user.id)).status).toBe('expired');

    const cancelled = await payer(1_000_000);
    const c = await subs().users.grant(ROOT, cancelled.user.id, plan.id);
    await call(cancelled.client);
    await subs().users.invalidate(ROOT, c.id);
    await call(cancelled.client);
    await h.drain();
    expect(Number((await subRow(cancelled.user.id)).amount_used)).toBe(PRICE);
    expect(Number((await ledger(h.deps, cancelled.user.id, 0)).user.quota)).toBe(1_000_000 - PRICE);
  });
});
