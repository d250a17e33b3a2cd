import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { login, loginAs, randomIp, restHeaders, ROOT_PASSWORD, setupRoot, trpcCaller } from '../../../test/users.ts';

describe('self service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, payload });

  it('GET /api/user/self: the full user without the password hash', async () => {
    const { user, headers } = await loginAs(t);
    const res = await call('GET', '/api/user/self', headers);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ id: user.id, username: user.username, role: 1, status: 1, password: '' });
    for (const key of ['access_token', 'setting', 'aff_code', 'aff_quota', 'aff_count', 'quota', 'used_quota'])
      expect(data).toHaveProperty(key);
    expect(data.DeletedAt).toBeNull();
    expect(JSON.stringify(res.json())).not.toContain('argon2');
  });

  it('GET /api/user/token: a new 32-char access token each time', async () => {
    const { headers } = await loginAs(t);
    const a = (await call('GET', '/api/user/token', headers)).json().data;
    const b = (await call('GET', '/api/user/token', headers)).json().data;
    expect(a).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(b).not.toBe(a);
    expect((await call('GET', '/api/user/self', headers)).json().data.access_token).toBe(b);
  });

  it('GET /api/user/aff: the invite code, created when missing', async () => {
    const { user, headers } = await loginAs(t);
    await t.deps.db.updateTable('users').set({ aff_code: null }).where('id', '=', user.id).execute();
    const code = (await call('GET', '/api/user/aff', headers)).json().data;
    expect(code).toMatch(/^[a-zA-Z0-9]{4}$/);
    expect((await call('GET', '/api/user/aff', headers)).json().data).toBe(code);
  });

  it('PUT /api/user/self: changes names; an empty password keeps the old one', async () => {
    const { user, session, headers } = await loginAs(t);
    const newName = `${user.username}x`.slice(0, 20);
    let res = await call('PUT', '/api/user/self', headers, { username: newName, display_name: 'Nice', password: '' });
    expect(res.json()).toEqual({ success: true, message: '' });
    const self = (await call('GET', '/api/user/self', headers)).json().data;
    expect(self).toMatchObject({ username: newName, display_name: 'Nice' });
    expect((await login(t, newName, user.password)).userId).toBe(session.userId);

    res = await call('PUT', '/api/user/self', headers, { username: 'root' });
    expectRefused(res, '用户名已存在，或已注销');
    expect((await call('GET', '/api/user/self', headers)).json().data.username).toBe(newName);
  });

  it('PUT /api/user/self: a new password with the current one, 8..20 chars', async () => {
    const { user, headers } = await loginAs(t);
    let res = await call('PUT', '/api/user/self', headers, { password: 'short', original_password: user.password });
    expectRefused(res, '密码长度不得小于 8 位');
    res = await call('PUT', '/api/user/self', headers, { password: 'x'.repeat(21), original_password: user.password });
    expectRefused(res, '密码长度不得超过 20 位');
    await login(t, user.username, user.password);
    res = await call('PUT', '/api/user/self', headers, { password: 'NewPassw0rd', original_password: user.password });
    expect(res.json()).toEqual({ success: true, message: '' });
    await login(t, user.username, 'NewPassw0rd');
    await expect(login(t, user.username, user.password)).rejects.toThrow();
  });

  it('PUT /api/user/self: a legacy console may send the new password alone', async () => {
    const { user, headers } = await loginAs(t);
    const res = await call('PUT', '/api/user/self', headers, { password: 'AloneNew123' });
    expect(res.json()).toEqual({ success: true, message: '' });
    expect((await login(t, user.username, 'AloneNew123')).userId).toBe(user.id);
    await expect(login(t, user.username, user.password)).rejects.toThrow();
  });

  it('PUT /api/user/self: a wrong original password is refused and changes nothing', async () => {
    const { user, headers } = await loginAs(t);
    const res = await call('PUT', '/api/user/self', headers, {
      password: 'NewPassw0rd',
      original_password: 'wrong-pass',
    });
    expectRefused(res, '原密码错误');
    expect((await login(t, user.username, user.password)).userId).toBe(user.id);
    await expect(login(t, user.username, 'NewPassw0rd')).rejects.toThrow();
  });

  it('PUT /api/user/self: wrong types and malformed JSON are refused', async () => {
    const { headers } = await loginAs(t);
    let res = await call('PUT', '/api/user/self', headers, { display_name: 5 });
    expectRefused(res);
    expect(res.json().message).toContain('显示名称必须是字符串');
    res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{not json',
    });
    expectRefused(res, '无效的参数：请求体不是合法的 JSON');
  });

  it('DELETE /api/user/self: soft delete; the account can no longer sign in', async () => {
    const { user, headers } = await loginAs(t);
    const res = await call('DELETE', '/api/user/self', headers);
    expect(res.json()).toEqual({ success: true, message: '' });
    const row = await t.deps.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await call('GET', '/api/user/self', headers)).statusCode).toBe(401);
    await expect(login(t, user.username, user.password)).rejects.toThrow();
  });

  it('DELETE /api/user/self: root cannot delete itself', async () => {
    const session = await login(t, 'root', ROOT_PASSWORD);
    const res = await call('DELETE', '/api/user/self', restHeaders(session));
    expectRefused(res, '不能删除超级管理员账户');
    const row = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', session.userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ deleted_at: null, status: 1 });
  });

  describe('groups and models', () => {
    it('GET /api/user/self/groups: usable ∩ GroupRatio plus the own group', async () => {
      const { user, headers } = await loginAs(t);
      let res = await call('GET', '/api/user/self/groups', headers);
      // A fresh install offers only the group every user starts in (issue 39: no preset vip).
      expect(res.json().data).toEqual({ default: { ratio: 1, desc: '默认分组' } });
      await t.deps.services.options.update('GroupRatio', JSON.stringify({ default: 1, vip: 2 }));
      await t.deps.services.options.update('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'VIP' }));
      res = await call('GET', '/api/user/self/groups', headers);
      expect(res.json().data).toEqual({ default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 2, desc: 'VIP' } });
      await t.deps.db.updateTable('users').set({ group: 'svip' }).where('id', '=', user.id).execute();
      res = await call('GET', '/api/user/self/groups', headers);
      expect(res.json().data.svip).toEqual({ ratio: 1, desc: '用户分组' });
    });

    it('GET /api/user/groups is public', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/user/groups' });
      expect(res.json()).toEqual({
        success: true,
        message: '',
        data: { default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 2, desc: 'VIP' } },
      });
    });

    it('GET /api/user/models and users.models: enabled models of the usable groups that a call would not refuse for want of a price', async () => {
      const options = t.deps.services.options;
      await options.update(
        'ModelRatio',
        JSON.stringify({ 'gpt-4o': 1, 'claude-3': 1, 'disabled-model': 1, 'hidden-model': 1 }),
      );
      await t.deps.db
        .insertInto('abilities')
        .values([
          { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: 1 },
          { group: 'vip', model: 'gpt-4o', channel_id: 2, enabled: 1 },
          { group: 'default', model: 'disabled-model', channel_id: 1, enabled: 0 },
          { group: 'secret', model: 'hidden-model', channel_id: 3, enabled: 1 },
          { group: 'vip', model: 'claude-3', channel_id: 2, enabled: 1 },
          { group: 'default', model: 'no-price-model', channel_id: 1, enabled: 1 },
        ])
        .execute();
      // Written behind the channels service's back: tell the caches as a channel write does.
      t.deps.bus.publish('channels');
      const { user, headers } = await loginAs(t);
      const rest = async (h = headers) => (await call('GET', '/api/user/models', h)).json().data;
      const trpc = () => trpcCaller(t, { id: user.id, role: Role.Common, group: 'default' }).users.models();
      expect(await rest()).toEqual(['claude-3', 'gpt-4o']);
      expect(await trpc()).toEqual(['claude-3', 'gpt-4o']);

      // Priced now: listed at once (options are read from memory).
      await options.update('ModelPrice', JSON.stringify({ 'no-price-model': 0.01 }));
      expect(await rest()).toEqual(['claude-3', 'gpt-4o', 'no-price-model']);
      await options.update('ModelPrice', '{}');

      // Self-use mode: nothing is refused for want of a price, so everything served is listed.
      await options.update('SelfUseModeEnabled', 'true');
      expect(await trpc()).toEqual(['claude-3', 'gpt-4o', 'no-price-model']);
      await options.update('SelfUseModeEnabled', 'false');
      expect(await trpc()).toEqual(['claude-3', 'gpt-4o']);

      // A user who accepts models without a price can call them, so sees them.
      const accepting = await loginAs(t);
      await t.deps.db
        .updateTable('users')
        .set({ setting: JSON.stringify({ accept_unset_model_ratio_model: true }) })
        .where('id', '=', accepting.user.id)
        .execute();
      expect(await rest(accepting.headers)).toEqual(['claude-3', 'gpt-4o', 'no-price-model']);

      // A channel change reaches the list (cached between changes, not read per request).
      await t.deps.db.updateTable('abilities').set({ enabled: 0 }).where('model', '=', 'claude-3').execute();
      expect(await rest()).toEqual(['claude-3', 'gpt-4o']);
      t.deps.bus.publish('channels');
      expect(await rest()).toEqual(['gpt-4o']);
    });

    it('GET /api/group/: admin only, names from GroupRatio', async () => {
      const admin = await loginAs(t, Role.Admin);
      expect((await call('GET', '/api/group/', admin.headers)).json().data).toEqual(['default', 'vip']);
      const common = await loginAs(t);
      expectRefused(await call('GET', '/api/group/', common.headers), '无权进行此操作，权限不足');
    });
  });

  it('every self route needs a login', async () => {
    for (const url of [
      '/api/user/self',
      '/api/user/token',
      '/api/user/aff',
      '/api/user/models',
      '/api/user/self/groups',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
      expect(res.statusCode).toBe(401);
    }
  });
});
