import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot } from '../../../test/users.ts';

/*
 * A plan's quota per period (issue 39): in Switchyard's console a plan with no quota is refused unless
 * "Unlimited quota" is switched on, so a forgotten field cannot sell endless spending for $1; new-api's
 * REST calls keep new-api's meaning (total_amount 0 = unlimited) for its consoles and scripts.
 */

let t: TestApp;
let admin: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  admin = (await loginAs(t, Role.Admin)).headers;
});
afterAll(() => t.close());

/** A console call as the browser makes it: tRPC over HTTP with the session cookie. */
const trpc = (path: string, input: object) =>
  t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { ...admin, 'content-type': 'application/json' },
    payload: input,
  });
const rest = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin, payload });
const planTotal = async (id: number) =>
  Number(
    (await t.deps.db.selectFrom('subscription_plans').select('total_amount').where('id', '=', id).executeTakeFirst())
      ?.total_amount,
  );

describe("the console's plan form", () => {
  it('refuses a plan with no quota and no "Unlimited quota" switch, and saves nothing', async () => {
    const res = await trpc('subscriptionAdmin.create', { title: 'Starter', price_amount: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('请填写每周期额度，或明确开启“无限额度”');
    const listed = (await rest('GET', '/api/subscription/admin/plans')).json().data as { plan: { title: string } }[];
    expect(listed.map((p) => p.plan.title)).not.toContain('Starter');
  });

  it('saves a quota per period, and an unlimited plan only when the switch says so', async () => {
    const limited = await trpc('subscriptionAdmin.create', { title: 'Basic', price_amount: 1, total_amount: 500_000 });
    expect(limited.statusCode).toBe(200);
    expect(await planTotal(limited.json().result.data.id)).toBe(500_000);

    // The switch wins over a quota typed before it was turned on: the plan is stored unlimited (0).
    const open = await trpc('subscriptionAdmin.create', {
      title: 'All you can eat',
      price_amount: 99,
      total_amount: 123,
      unlimited_quota: true,
    });
    expect(open.statusCode).toBe(200);
    expect(await planTotal(open.json().result.data.id)).toBe(0);
  });

  it('refuses an edit that empties the quota without the switch, and keeps the old quota', async () => {
    const id = (await trpc('subscriptionAdmin.create', { title: 'Pro', total_amount: 1_000 })).json().result.data
      .id as number;
    const res = await trpc('subscriptionAdmin.update', { id, plan: { title: 'Pro', total_amount: 0 } });
    expect(res.statusCode).toBe(400);
    expect(await planTotal(id)).toBe(1_000);
    const ok = await trpc('subscriptionAdmin.update', { id, plan: { title: 'Pro', unlimited_quota: true } });
    expect(ok.statusCode).toBe(200);
    expect(await planTotal(id)).toBe(0);
  });
});

describe("new-api's REST calls", () => {
  it("keep new-api's default: a plan without total_amount is created unlimited", async () => {
    const created = (await rest('POST', '/api/subscription/admin/plans', { plan: { title: 'Legacy' } })).json();
    expect(created).toMatchObject({ success: true, data: { plan: { title: 'Legacy', total_amount: 0 } } });
    const id = created.data.plan.id as number;
    const put = await rest('PUT', `/api/subscription/admin/plans/${id}`, {
      plan: { title: 'Legacy', total_amount: 0 },
    });
    expect(put.json()).toMatchObject({ success: true });
    expect(await planTotal(id)).toBe(0);
  });
});
