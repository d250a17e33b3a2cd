import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { loginAs, setupRoot } from '../../test/users.ts';

/*
 * Refusals carry a stable code and parameters for the console to translate (issue 22 item 2),
 * while REST keeps new-api's Chinese text for legacy clients.
 */
describe('refusal codes on tRPC', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    ({ headers } = await loginAs(t));
  });
  afterAll(() => t.close());

  const trpcError = async (path: string, input: unknown, method: 'GET' | 'POST' = 'POST') => {
    const res = await t.app.inject(
      method === 'POST'
        ? { method, url: `/trpc/${path}`, headers, payload: input as object }
        : { method, url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers },
    );
    return (res.json() as { error: { message: string; data: Record<string, unknown> } }).error;
  };

  it('a service refusal: code, parameters and the Chinese text as message', async () => {
    const e = await trpcError('wallet.redeem', { key: 'no-such-code' });
    expect(e.data).toMatchObject({ messageCode: 'redeem.invalid', messageParams: {}, httpStatus: 400 });
    expect(e.message).toBe('无效的兑换码');
  });

  it('a refusal with parameters', async () => {
    const e = await trpcError('tokens.get', { id: 999999 }, 'GET');
    expect(e.data).toMatchObject({ messageCode: 'token.not_found' });
    const short = await trpcError('users.updateSelf', { password: 'abc', original_password: 'Passw0rd!' });
    expect(short.data).toMatchObject({ messageCode: 'user.password_too_short', messageParams: { min: 8 } });
  });

  it('a schema refusal is recognised by its text (field names are messages too)', async () => {
    const e = await trpcError('tokens.create', { name: 'x'.repeat(200) });
    expect(e.data).toMatchObject({ messageCode: 'token.name_too_long' });
    const typed = await trpcError('users.updateSelf', { username: 42 });
    expect(typed.data).toMatchObject({ messageCode: 'common.field_not_string', messageParams: { field: '用户名' } });
  });

  it('REST answers the same refusal with the Chinese text only', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/topup', headers, payload: { key: 'no-such' } });
    expect(res.json()).toEqual({ success: false, message: '无效的兑换码' });
  });
});
