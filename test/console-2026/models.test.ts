import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../shared/channel-types.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { LegacyConsole, listen } from '../legacy-console/console-client.ts';
import { insertChannel } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';

/*
 * Today's new-api console (classic UI) on its model marketplace screens, over HTTP, each call built
 * as its source builds it and each answer read the way it reads it:
 * - the models page: the useModelsData hook (models table, vendor tabs, search, enable/disable, delete,
 *   upstream sync) and components/table/models/modals/EditModelModal.jsx (vendors and prefill groups on
 *   open, POST/PUT /api/models/ with tags joined by commas and 0/1 flags);
 * - its "missing models" and prefill-group dialogs (GET /api/models/missing, /api/prefill_group);
 * - the pricing page: hooks/model-pricing/useModelPricingData.jsx (vendors mapped by id onto each model,
 *   `enable_groups.includes(...)` for the group filter, filters by vendor name and tag).
 */

let t: TestApp;
let root: LegacyConsole;
let user: LegacyConsole;
let anon: LegacyConsole;
type Envelope<T = unknown> = { success?: boolean; message?: string; data?: T } & Record<string, unknown>;
const env = <T = unknown>(r: { data: unknown }) => r.data as Envelope<T>;
type Page<T> = { items: T[]; total: number; page: number; page_size: number; vendor_counts?: Record<string, number> };
type Meta = { id: number; model_name: string; vendor_id?: number; tags?: string; description?: string; status: number };

const UNUSED = 'http://127.0.0.1:9';

beforeAll(async () => {
  t = await createTestApp();
  const base = await listen(t);
  await setupRoot(t);
  root = await new LegacyConsole(base).login(ROOT_USERNAME, ROOT_PASSWORD);
  const u = await createUser(t);
  user = await new LegacyConsole(base).login(u.username, u.password);
  anon = new LegacyConsole(base);
  await insertChannel(t.deps, { name: 'openai', baseUrl: UNUSED, models: ['gpt-4o', 'gpt-4o-mini'] });
  await insertChannel(t.deps, {
    name: 'claude',
    baseUrl: UNUSED,
    type: ChannelType.Anthropic,
    models: ['claude-3-haiku'],
  });
});
afterAll(() => t.close());

describe('the models page (admin)', () => {
  let vendorId = 0;
  let modelId = 0;

  it('loads vendors and the first page of metadata as page objects', async () => {
    const vendors = env<Page<unknown>>(await root.get('/api/vendors/?page_size=1000'));
    expect(vendors).toMatchObject({ success: true, data: { items: [], total: 0, page: 1, page_size: 100 } });
    const models = env<Page<Meta>>(await root.get('/api/models/?p=1&page_size=10'));
    expect(models.success).toBe(true);
    expect(models.data).toMatchObject({ items: [], total: 0, page: 1, page_size: 10, vendor_counts: {} });
  });

  it('creates a vendor, then a model from the edit drawer, and refuses a second of the same name', async () => {
    const v = env<{ id: number }>(
      await root.post('/api/vendors/', { name: 'OpenAI', description: 'GPT', icon: 'OpenAI' }),
    );
    expect(v).toMatchObject({ success: true, data: { name: 'OpenAI', icon: 'OpenAI', status: 1 } });
    vendorId = v.data!.id;
    // The drawer's open: vendors again, then tag and endpoint prefill groups (plain arrays in `data`).
    expect(env(await root.get('/api/prefill_group?type=tag'))).toEqual({ success: true, message: '', data: [] });
    expect(env(await root.get('/api/prefill_group?type=endpoint')).data).toEqual([]);
    const body = {
      model_name: 'gpt-4o',
      description: 'Flagship model',
      icon: '',
      tags: ['chat', 'vision'].join(','),
      vendor_id: vendorId,
      vendor: 'OpenAI',
      vendor_icon: '',
      endpoints: '',
      name_rule: 0,
      status: 1,
      sync_official: 1,
    };
    const created = env<Meta>(await root.post('/api/models/', body));
    expect(created).toMatchObject({
      success: true,
      data: { model_name: 'gpt-4o', tags: 'chat,vision', vendor_id: vendorId },
    });
    modelId = created.data!.id;
    expect(env(await root.post('/api/models/', body))).toMatchObject({ success: false, message: '模型名称已存在' });
    expect(env(await root.post('/api/models/', { ...body, model_name: '' }))).toMatchObject({
      success: false,
      message: '模型名称不能为空',
    });
  });

  it('lists the row with its channels, groups and vendor counts; reads, edits, disables it', async () => {
    const list = env<Page<Meta & { bound_channels: unknown; enable_groups: string[] }>>(
      await root.get('/api/models/?p=1&page_size=10'),
    ).data!;
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: modelId,
      bound_channels: [{ name: 'openai', type: 1 }],
      enable_groups: ['default'],
    });
    expect(list.vendor_counts).toEqual({ [String(vendorId)]: 1 });

    const one = env<Meta>(await root.get(`/api/models/${modelId}`)).data!;
    expect(one.tags!.split(',').filter(Boolean)).toEqual(['chat', 'vision']);
    const put = env(await root.put('/api/models/', { ...one, id: modelId, description: 'Edited', status: 1 }));
    expect(put).toMatchObject({ success: true, data: { description: 'Edited' } });
    expect(env(await root.put('/api/models/?status_only=true', { id: modelId, status: 0 })).success).toBe(true);
    expect(env<Meta>(await root.get(`/api/models/${modelId}`)).data!).toMatchObject({
      status: 0,
      description: 'Edited',
    });
    await root.put('/api/models/?status_only=true', { id: modelId, status: 1 });
  });

  it('searches by keyword and filters by the vendor tab', async () => {
    const byKeyword = env<Page<Meta>>(
      await root.get('/api/models/search?keyword=Edited&vendor=&p=1&page_size=10'),
    ).data!;
    expect(byKeyword.items.map((m) => m.model_name)).toEqual(['gpt-4o']);
    const byVendor = env<Page<Meta>>(await root.get(`/api/models/search?vendor=${vendorId}&p=1&page_size=10`)).data!;
    expect(byVendor.total).toBe(1);
    const none = env<Page<Meta>>(await root.get('/api/models/search?keyword=nothing&vendor=&p=1&page_size=10')).data!;
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('missing models: served models without a row, as a plain list', async () => {
    expect(env(await root.get('/api/models/missing'))).toEqual({
      success: true,
      message: '',
      data: ['claude-3-haiku', 'gpt-4o-mini'],
    });
  });

  it('upstream sync: the preview finds nothing (empty state), the sync itself says why it is not available', async () => {
    expect(env(await root.get('/api/models/sync_upstream/preview?locale=zh'))).toMatchObject({
      success: true,
      data: { missing: [], conflicts: [] },
    });
    const sync = env(await root.post('/api/models/sync_upstream', { locale: 'zh' }));
    expect(sync.success).toBe(false);
    expect(sync.message).toContain('不支持从官方同步模型元数据');
  });

  it('prefill groups: create (tag list, endpoint JSON text), list by type, edit, delete', async () => {
    const tag = env<{ id: number }>(
      await root.post('/api/prefill_group', { name: 'vision', type: 'tag', items: ['vision'] }),
    );
    expect(tag).toMatchObject({ success: true, data: { name: 'vision', type: 'tag', items: ['vision'] } });
    const endpoints = '{"openai":{"path":"/v1/chat/completions","method":"POST"}}';
    const ep = env(await root.post('/api/prefill_group', { name: 'doors', type: 'endpoint', items: endpoints }));
    expect(ep).toMatchObject({ success: true, data: { items: endpoints } });
    expect(env(await root.post('/api/prefill_group', { name: 'vision', type: 'tag', items: [] }))).toMatchObject({
      success: false,
      message: '组名称已存在',
    });
    const put = env(
      await root.put('/api/prefill_group', { id: tag.data!.id, name: 'vision', type: 'tag', items: ['ocr'] }),
    );
    expect(put).toMatchObject({ success: true, data: { items: ['ocr'] } });
    expect(
      env<{ name: string }[]>(await root.get('/api/prefill_group'))
        .data!.map((g) => g.name)
        .sort(),
    ).toEqual(['doors', 'vision']);
    expect(env(await root.del(`/api/prefill_group/${tag.data!.id}`)).success).toBe(true);
  });

  it('the pricing page maps vendors onto models and filters by vendor name and tag', async () => {
    type Item = { model_name: string; tags?: string; vendor_id?: number; enable_groups?: string[] };
    const res = env<Item[]>(await anon.get('/api/pricing'));
    expect(res.success).toBe(true);
    const vendors = res.vendors as { id: number; name: string; icon?: string }[];
    const vendorMap = Object.fromEntries(vendors.map((v) => [v.id, v]));
    const models = res.data!.map((m) => ({
      ...m,
      vendor_name: m.vendor_id ? vendorMap[m.vendor_id]?.name : undefined,
    }));
    expect(models.filter((m) => m.vendor_name === 'OpenAI').map((m) => m.model_name)).toEqual(['gpt-4o']);
    const tagged = models.filter((m) =>
      String(m.tags ?? '')
        .toLowerCase()
        .split(/[,;|]+/)
        .map((x) => x.trim())
        .includes('vision'),
    );
    expect(tagged.map((m) => m.model_name)).toEqual(['gpt-4o']);
    // The group filter calls enable_groups.includes on every model: it must be a list on each.
    expect(models.every((m) => Array.isArray(m.enable_groups))).toBe(true);
    expect(res.supported_endpoint).toMatchObject({ anthropic: { path: '/v1/messages', method: 'POST' } });
    expect(res.auto_groups).toEqual([]);
  });

  it('deleting a vendor leaves its model without one; the pricing page no longer names it', async () => {
    expect(env(await root.del(`/api/vendors/${vendorId}`))).toMatchObject({ success: true });
    expect(env<Meta>(await root.get(`/api/models/${modelId}`)).data!).not.toHaveProperty('vendor_id');
    expect((env(await anon.get('/api/pricing')).vendors as unknown[]).length).toBe(0);
    expect(env(await root.del(`/api/models/${modelId}`)).success).toBe(true);
    expect(env(await root.get(`/api/models/${modelId}`))).toMatchObject({ success: false, message: '模型不存在' });
  });
});

describe('GET /api/models with and without the slash, under both contracts', () => {
  it('2026: /api/models is the dashboard’s channel-type map for users; /api/models/ is the admin list', async () => {
    const map = env<Record<string, string[]>>(await user.get('/api/models')).data!;
    expect(map[String(ChannelType.OpenAI)]).toContain('gpt-4o');
    expect(env(await user.get('/api/models/?p=1&page_size=10'))).toMatchObject({
      success: false,
      message: '无权进行此操作，权限不足',
    });
    expect(env<Page<Meta>>(await root.get('/api/models/?p=1&page_size=10')).data).toHaveProperty('items');
  });

  it("'2025-04': /api/models/ answers the channel-type map exactly as /api/models does", async () => {
    await setOption(t, 'ApiCompatContract', '2025-04');
    try {
      const plain = await user.get('/api/models');
      const slash = await user.get('/api/models/');
      expect(slash.data).toEqual(plain.data);
      expect(env<Record<string, string[]>>(slash).data![String(ChannelType.Anthropic)]).toBeInstanceOf(Array);
      // The routes new in 2026 are served under the older contract too.
      expect(env(await root.get('/api/vendors/?page_size=1000')).success).toBe(true);
    } finally {
      await setOption(t, 'ApiCompatContract', '2026');
    }
  });
});
