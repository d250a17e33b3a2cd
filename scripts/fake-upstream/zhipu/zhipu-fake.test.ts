import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../server.ts';
import { FAKE_ZHIPU_ID, FAKE_ZHIPU_SECRET, startFakeZhipu } from './index.ts';

/* The Zhipu fake refuses what Zhipu's v3 API refused, with its codes in an HTTP 200 answer. */

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeZhipu();
});
afterAll(() => fake.close());

const sign = (claims: Record<string, unknown>, secret = FAKE_ZHIPU_SECRET, header = { sign_type: 'SIGN' }) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header }).sign(new TextEncoder().encode(secret));

const call = async (
  authorization: string | undefined,
  body: unknown = { prompt: [{ role: 'user', content: 'hi' }] },
) => {
  const res = await fetch(`${fake.url}/api/paas/v3/model-api/chatglm_turbo/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: number; success: boolean };
};

describe('fake Zhipu v3', () => {
  const now = Date.now();
  const valid = { api_key: FAKE_ZHIPU_ID, exp: now + 60_000, timestamp: now };

  it('answers a valid JWT and refuses a missing, expired, foreign or wrongly signed one', async () => {
    expect(await call(await sign(valid))).toMatchObject({ success: true, code: 200 });
    expect(await call(undefined)).toMatchObject({ success: false, code: 1001 });
    expect(await call(await sign({ ...valid, exp: now - 1 }))).toMatchObject({ success: false, code: 1003 });
    expect(await call(await sign({ ...valid, api_key: 'other' }))).toMatchObject({ success: false, code: 1000 });
    expect(await call(await sign(valid, 'not-the-secret'))).toMatchObject({ success: false, code: 1004 });
    expect(await call(await sign(valid, FAKE_ZHIPU_SECRET, { sign_type: 'X' }))).toMatchObject({ code: 1002 });
  });

  it('refuses prompts v3 refused: a system role, turns not alternating, a closing assistant turn', async () => {
    const jwt = await sign(valid);
    const refused = async (prompt: unknown[]) => (await call(jwt, { prompt })).code;
    expect(
      await refused([
        { role: 'system', content: 'x' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe(1214);
    expect(
      await refused([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]),
    ).toBe(1214);
    expect(
      await refused([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ]),
    ).toBe(1214);
  });
});
