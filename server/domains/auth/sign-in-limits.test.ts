import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, randomIp, setupRoot } from '../../../test/users.ts';
import { SIGN_IN_LIMITS } from './sign-in-limits.service.ts';

/*
 * Issue 39: password sign-in limits per account and per address. Wrong passwords lock the account
 * (from any address) for 15 minutes; an address gets a higher limit, so one person's typos do not lock
 * everyone behind the same NAT or proxy. A lock answers 429 in the surface's envelope with Retry-After.
 */

const WRONG_CREDENTIALS = '用户名或密码错误，或用户已被封禁';
const LOCKED = '登录尝试次数过多，请在 15 分钟后重试';

describe('sign-in limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const post = (username: string, password: string, ip = randomIp()) =>
    t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password }, remoteAddress: ip });

  it('locks an account after ten wrong passwords from any addresses, even against the right one, for 15 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const u = await createUser(t);
    const other = await createUser(t);
    const shared = randomIp();
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++) {
      const res = await post(u.username, `wrong-${i}`, i === 0 ? shared : randomIp());
      expect(res.json()).toEqual({ success: false, message: WRONG_CREDENTIALS });
    }
    // The right password, from yet another address: refused, saying when to come back.
    const locked = await post(u.username, u.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ success: false, message: LOCKED });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Someone else at an address the guesses came from signs in.
    expect((await post(other.username, other.password, shared)).json().success).toBe(true);

    vi.setSystemTime(Date.now() + retryAfter * 1000 + 1000);
    expect((await post(u.username, u.password)).json()).toMatchObject({ success: true, data: { id: u.id } });
  });

  it('gives an address a higher limit: one user’s typos do not lock the others behind it, fifty failures do', async () => {
    const office = randomIp();
    const typist = await createUser(t);
    const colleague = await createUser(t);
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++) await post(typist.username, `typo-${i}`, office);
    expect((await post(typist.username, typist.password, office)).statusCode).toBe(429);
    expect((await post(colleague.username, colleague.password, office)).json().success).toBe(true);

    // Guessing many names from one address locks the address.
    const left = SIGN_IN_LIMITS.ip.failures - SIGN_IN_LIMITS.account.failures;
    for (let i = 0; i < left; i++)
      expect((await post(`nobody-${i}`, 'guess', office)).json().message).toBe(WRONG_CREDENTIALS);
    const res = await post(colleague.username, colleague.password, office);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ success: false, message: LOCKED });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // From another address the colleague still signs in.
    expect((await post(colleague.username, colleague.password)).json().success).toBe(true);
  });

  it('answers the console’s tRPC sign-in with TOO_MANY_REQUESTS, the retry time in the data and Retry-After', async () => {
    const u = await createUser(t);
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++) await post(u.username, `wrong-${i}`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { username: u.username, password: u.password },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(429);
    const data = res.json().error.data;
    expect(data).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      messageCode: 'login.too_many_attempts',
      messageParams: { minutes: 15 },
    });
    expect(data.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(res.headers['retry-after']).toBe(String(data.retryAfterSeconds));
  });
});
