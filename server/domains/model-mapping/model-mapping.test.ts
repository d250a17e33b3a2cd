import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot } from '../../../test/users.ts';

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  headers = (await loginAs(t, Role.Admin)).headers;
});
afterAll(() => t.close());

const put = (mapping: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/model_mapping/', headers, payload: { mapping } });
const get = async () => (await t.app.inject({ method: 'GET', url: '/api/model_mapping/', headers })).json();

describe('model mapping', () => {
  it('saves, answers {mapping} and resolves real models by priority', async () => {
    const mapping = {
      'smart-model': [
        { model: 'gpt-4o-mini', priorities: 0 },
        { model: 'gpt-4o', priorities: 10 },
        { model: 'claude-3-5-sonnet', priorities: 10 },
      ],
    };
    expect((await put(mapping)).json()).toEqual({ success: true, message: '' });
    expect(await get()).toEqual({ success: true, message: '', data: { mapping } });
    expect(t.deps.services.modelMapping.resolveVirtualModel('smart-model')).toEqual([
      'gpt-4o',
      'claude-3-5-sonnet',
      'gpt-4o-mini',
    ]);
    expect(t.deps.services.modelMapping.resolveVirtualModel('gpt-4o')).toBeUndefined();
  });

  it.each([
    ['a virtual name is required', [{ name: '  ', models: [{ model: 'a', priorities: 0 }] }], '虚拟模型名称不能为空'],
    [
      'virtual names are unique',
      [
        { name: 'v', models: [{ model: 'a', priorities: 0 }] },
        { name: ' v ', models: [{ model: 'b', priorities: 0 }] },
      ],
      '虚拟模型名称已存在',
    ],
    [
      'real names are not duplicated',
      {
        v: [
          { model: 'a', priorities: 0 },
          { model: 'a ', priorities: 1 },
        ],
      },
      '真实模型名称重复',
    ],
    ['real names are not empty', { v: [{ model: '', priorities: 0 }] }, '真实模型名称不能为空'],
    ['at least one real model', { v: [] }, '至少需要一个真实模型'],
    ['priority is an integer', { v: [{ model: 'a', priorities: 1.5 }] }, '优先级必须是不小于 0 的整数'],
    ['priority is not negative', { v: [{ model: 'a', priorities: -1 }] }, '优先级必须是不小于 0 的整数'],
  ])('%s', async (_name, mapping, message) => {
    const before = await get();
    const res = await put(mapping);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: expect.stringContaining(message) });
    expect(await get()).toEqual(before);
  });

  it('reload re-reads an edit made straight in the database', async () => {
    // Stored with the singular `priority` (as values saved before the spec's `priorities` were): still read.
    await t.deps.db
      .updateTable('options')
      .set({ value: JSON.stringify({ other: [{ model: 'x', priority: 0 }] }) })
      .where('key', '=', 'ModelMapping')
      .execute();
    const res = await t.app.inject({ method: 'POST', url: '/api/model_mapping/reload', headers });
    expect(res.json().data.mapping).toEqual({ other: [{ model: 'x', priorities: 0 }] });
    expect(t.deps.services.modelMapping.resolveVirtualModel('other')).toEqual(['x']);
  });

  it('is for administrators only', async () => {
    const { headers: userHeaders } = await loginAs(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/model_mapping/', headers: userHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: '无权进行此操作，权限不足' });
  });
});
