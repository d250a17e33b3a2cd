import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../shared/channel-types.ts';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel } from '../../../test/relay-fixtures.ts';
import { createUser, trpcCaller } from '../../../test/users.ts';

/*
 * The model marketplace's rules through the console's procedures and the pricing page: unique names,
 * name rules, vendors (and deleting one that models name), missing models from the enabled channels,
 * and prefill groups.
 */

/** No call reaches a channel here: only its models and groups matter. */
const UNUSED = 'http://127.0.0.1:9';

let t: TestApp;
let admin: ReturnType<typeof trpcCaller>;
let visitor: ReturnType<typeof trpcCaller>;

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t, { role: Role.Admin });
  admin = trpcCaller(t, { id: a.id, role: Role.Admin });
  visitor = trpcCaller(t, undefined);
  await insertChannel(t.deps, { name: 'openai-main', baseUrl: UNUSED, models: ['gpt-4o', 'gpt-4o-mini', 'o3'] });
  await insertChannel(t.deps, {
    name: 'claude',
    baseUrl: UNUSED,
    type: ChannelType.Anthropic,
    models: ['claude-sonnet-4'],
    groups: ['vip'],
  });
});
afterAll(() => t.close());

const pricingOf = async (model: string) => (await visitor.pricing.list()).data.find((p) => p.model_name === model);

describe('model metadata', () => {
  it('creates a row, refuses a second row of the same name, and shows the metadata on the pricing page', async () => {
    const vendor = await admin.vendors.save({ name: 'OpenAI', icon: 'OpenAI', description: 'Maker of GPT' });
    const row = await admin.modelMeta.save({
      model_name: ' gpt-4o ',
      description: 'Flagship multimodal model',
      tags: ['chat', 'vision', 'chat', ' '],
      vendor_id: vendor.id,
    });
    expect(row).toMatchObject({ model_name: 'gpt-4o', tags: 'chat,vision', vendor_id: vendor.id, status: 1 });
    expect(row.bound_channels).toEqual([{ name: 'openai-main', type: 1 }]);
    expect(row.enable_groups).toEqual(['default']);

    await expect(admin.modelMeta.save({ model_name: 'gpt-4o' })).rejects.toThrow('模型名称已存在');
    await expect(admin.modelMeta.save({ model_name: '   ' })).rejects.toThrow('模型名称不能为空');
    await expect(admin.modelMeta.save({ model_name: 'x', vendor_id: 99999 })).rejects.toThrow('供应商不存在');
    await expect(admin.modelMeta.save({ model_name: 'x', endpoints: '{not json' })).rejects.toThrow(
      '端点配置必须是 JSON 对象或数组',
    );

    const page = await visitor.pricing.list();
    expect(page.vendors).toContainEqual({ id: vendor.id, name: 'OpenAI', description: 'Maker of GPT', icon: 'OpenAI' });
    expect(await pricingOf('gpt-4o')).toMatchObject({
      description: 'Flagship multimodal model',
      tags: 'chat,vision',
      vendor_id: vendor.id,
      supported_endpoint_types: ['openai', 'openai-response', 'anthropic', 'gemini'],
    });
    // A model without metadata has none of the fields, as new-api leaves them out.
    const plain = await pricingOf('o3');
    expect(plain).toBeDefined();
    expect(plain).not.toHaveProperty('description');
    expect(plain).not.toHaveProperty('vendor_id');
  });

  it('renaming onto another row’s name is refused; an edit keeps the row’s own name', async () => {
    const a = await admin.modelMeta.save({ model_name: 'rename-a' });
    await admin.modelMeta.save({ model_name: 'rename-b' });
    await expect(admin.modelMeta.save({ id: a.id, model_name: 'rename-b' })).rejects.toThrow('模型名称已存在');
    const same = await admin.modelMeta.save({ id: a.id, model_name: 'rename-a', description: 'kept' });
    expect(same.description).toBe('kept');
  });

  it('a prefix rule describes every served model it matches, an exact row wins over it', async () => {
    const rule = await admin.modelMeta.save({ model_name: 'gpt-', name_rule: 1, description: 'GPT family' });
    expect(rule.matched_models?.sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect((await pricingOf('gpt-4o-mini'))?.description).toBe('GPT family');
    expect((await pricingOf('gpt-4o'))?.description).toBe('Flagship multimodal model');
  });

  it('a disabled row hides the models it describes from the pricing page until enabled again', async () => {
    const row = await admin.modelMeta.save({ model_name: 'o3', description: 'reasoning' });
    await admin.modelMeta.setStatus({ id: row.id, status: 0 });
    expect(await pricingOf('o3')).toBeUndefined();
    await admin.modelMeta.setStatus({ id: row.id, status: 1 });
    expect((await pricingOf('o3'))?.description).toBe('reasoning');
  });
});

describe('missing models', () => {
  it('lists served models without a row of their own name, and one click creates them', async () => {
    const missing = await admin.modelMeta.missing();
    // gpt-4o-mini is described by the prefix rule only: new-api still counts it as missing.
    expect(missing).toEqual(['claude-sonnet-4', 'gpt-4o-mini']);
    expect(await admin.modelMeta.createMissing({ names: ['claude-sonnet-4', 'not-served'] })).toEqual([
      'claude-sonnet-4',
    ]);
    expect(await admin.modelMeta.missing()).toEqual(['gpt-4o-mini']);
  });

  it('follows the channels: a new channel’s models appear, a deleted channel’s go', async () => {
    const id = await insertChannel(t.deps, { name: 'extra', baseUrl: UNUSED, models: ['qwen-max'] });
    expect(await admin.modelMeta.missing()).toContain('qwen-max');
    await t.deps.services.channels.remove(id);
    expect(await admin.modelMeta.missing()).not.toContain('qwen-max');
  });
});

describe('vendors', () => {
  it('names are unique; deleting a vendor leaves its models without one', async () => {
    const v = await admin.vendors.save({ name: 'Anthropic' });
    await expect(admin.vendors.save({ name: 'Anthropic' })).rejects.toThrow('供应商名称已存在');
    await expect(admin.vendors.save({ name: '' })).rejects.toThrow('供应商名称不能为空');
    const m = await admin.modelMeta.save({ model_name: 'claude-opus', vendor_id: v.id });
    const listed = (await admin.vendors.list()).find((x) => x.id === v.id);
    expect(listed?.model_count).toBe(1);

    expect(await admin.vendors.remove({ id: v.id })).toEqual({ detached: 1 });
    const after = (await admin.modelMeta.list({ keyword: 'claude-opus' })).items[0];
    expect(after.id).toBe(m.id);
    expect(after).not.toHaveProperty('vendor_id');
    expect((await visitor.pricing.list()).vendors.map((x) => x.name)).not.toContain('Anthropic');
  });

  it('the model list filters by vendor and counts rows per vendor', async () => {
    const v = await admin.vendors.save({ name: 'Alibaba' });
    await admin.modelMeta.save({ model_name: 'qwen-turbo', vendor_id: v.id });
    const page = await admin.modelMeta.list({ vendorId: v.id });
    expect(page.items.map((i) => i.model_name)).toEqual(['qwen-turbo']);
    expect(page.vendor_counts[String(v.id)]).toBe(1);
  });
});

describe('prefill groups', () => {
  it('creates, lists by type, refuses duplicates and bad types, edits and deletes', async () => {
    const svc = t.deps.services.prefillGroups;
    const g = await svc.create({ name: 'vision', type: 'tag', items: ['vision', 'vision', 'ocr'] });
    expect(g.items).toEqual(['vision', 'ocr']);
    const ep = await svc.create({
      name: 'chat doors',
      type: 'endpoint',
      items: '{"openai":{"path":"/v1/chat/completions"}}',
    });
    expect(ep.items).toBe('{"openai":{"path":"/v1/chat/completions"}}');
    await expect(svc.create({ name: 'vision', type: 'model', items: [] })).rejects.toThrow('组名称已存在');
    await expect(svc.create({ name: 'x', type: 'color' })).rejects.toThrow('组类型必须是 model、tag 或 endpoint');
    await expect(svc.create({ name: '', type: 'tag' })).rejects.toThrow('组名称和类型不能为空');
    await expect(svc.update({ name: 'x', type: 'tag' })).rejects.toThrow('缺少组 ID');
    expect((await svc.list('tag')).map((x) => x.name)).toEqual(['vision']);
    expect((await svc.list('')).length).toBe(2);
    await svc.update({ id: g.id, name: 'vision', type: 'tag', items: ['img'] });
    expect((await svc.list('tag'))[0].items).toEqual(['img']);
    await svc.remove(g.id);
    await expect(svc.remove(g.id)).rejects.toThrow('预填组不存在');
  });
});
