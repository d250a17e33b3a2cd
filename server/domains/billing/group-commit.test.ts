import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertToken, insertUser } from '../../../test/relay-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const balance = async (userId: number, tokenId: number) => ({
  user: Number(
    (await t.deps.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota,
  ),
  token: Number(
    (await t.deps.db.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId).executeTakeFirstOrThrow())
      .remain_quota,
  ),
});

describe('reservations made at the same time (group commit)', () => {
  it('gives each request its own answer when the batch does not fit, and never goes below zero', async () => {
    const user = await insertUser(t.deps, { quota: 1000 });
    const token = await insertToken(t.deps, user.id, { remainQuota: 700 });
    const payer = { userId: user.id, tokenId: token.id, unlimitedToken: false };
    // Eight requests of 200 in one turn: the token (700) fits three of them.
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => t.deps.services.billing.reserve(payer, 200)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(3);
    // 100 is left, less than each request needs: told how much it needs, not that the token is empty.
    expect(refused.map((r) => (r.reason as { detail?: string }).detail)).toEqual(
      Array(5).fill('insufficient_quota_for_request'),
    );
    expect(await balance(user.id, token.id)).toEqual({ user: 400, token: 100 });
    const rows = await t.deps.db
      .selectFrom('quota_reservations')
      .select('quota')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => Number(r.quota))).toEqual([200, 200, 200]);
  });

  it('reserves a whole batch that fits with one row per request, refundable one by one', async () => {
    const user = await insertUser(t.deps, { quota: 10_000 });
    const token = await insertToken(t.deps, user.id, { remainQuota: 10_000 });
    const payer = { userId: user.id, tokenId: token.id, unlimitedToken: false };
    const rs = await Promise.all([100, 200, 300, 400].map((q) => t.deps.services.billing.reserve(payer, q)));
    expect(new Set(rs.map((r) => r.id)).size).toBe(4);
    expect(await balance(user.id, token.id)).toEqual({ user: 9000, token: 9000 });
    await t.deps.services.billing.refund(rs[2]);
    expect(await balance(user.id, token.id)).toEqual({ user: 9300, token: 9300 });
  });
});

describe('group commit with a window (settlements)', () => {
  it('batches what arrives within the window, answers each caller in order, and falls back one by one', async () => {
    const batches: number[][] = [];
    const singles: number[] = [];
    let decline = false;
    const commit = createGroupCommit(
      async (xs: number[]) => {
        batches.push(xs);
        return decline ? null : xs.map((x) => x * 10);
      },
      async (x: number) => {
        singles.push(x);
        return -x;
      },
      30,
    );
    const first = commit(1);
    await new Promise((r) => setTimeout(r, 5));
    const rest = [commit(2), commit(3)];
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await commit(4)).toBe(-4); // alone in its window
    decline = true;
    expect(await Promise.all([commit(5), commit(6)])).toEqual([-5, -6]);
    expect(singles).toEqual([4, 5, 6]);
  });
});
