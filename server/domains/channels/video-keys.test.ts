import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../shared/channel-types.ts';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, trpcCaller } from '../../../test/users.ts';

type Json = Record<string, unknown>;

/*
 * Issue 40: Kling and Jimeng keys are an access/secret pair joined by "|"; any other shape can never
 * sign a request, so saving it is refused with the registry's words (REST in Chinese, tRPC by code). Their
 * APIs list no models either: fetch models offers the usual names without asking.
 */
describe('video channel keys', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminUser: { id: number; role: number };

  const call = async (method: 'POST' | 'PUT', payload: Json) => {
    const res = await t.app.inject({ method, url: '/api/channel/', payload, headers: admin });
    return res.json() as { success: boolean; message: string };
  };
  const create = (type: number, key: string, name = `c-${type}-${key.length}`) =>
    call('POST', { type, name, key, models: 'kling-v2-1' });
  const stored = (name: string) =>
    t.deps.db.selectFrom('channels').select(['id', 'key']).where('name', '=', name).executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp();
    const a = await loginAs(t, Role.Admin);
    admin = a.headers;
    adminUser = { id: Number(a.user.id), role: Role.Admin };
  });
  afterAll(() => t.close());

  it('refuses a Kling key that is not AccessKey|SecretKey, and saves one that is', async () => {
    for (const bad of ['sk-plain-api-key', 'ak|', '|sk', 'ak|sk|extra', 'ak | sk']) {
      const r = await create(ChannelType.Kling, bad, `kling-bad-${bad}`);
      expect(r, bad).toEqual({ success: false, message: '可灵渠道的密钥格式为 AccessKey|SecretKey，两者用 | 分隔' });
      expect(await stored(`kling-bad-${bad}`)).toBeUndefined();
    }
    expect(await create(ChannelType.Kling, 'AK123|SK456', 'kling-ok')).toMatchObject({ success: true });
    expect((await stored('kling-ok'))?.key).toBe('AK123|SK456');
  });

  it('refuses a Jimeng key that is not AccessKeyID|SecretAccessKey in its own words', async () => {
    const r = await create(ChannelType.Jimeng, 'AKLTabc', 'jimeng-bad');
    expect(r).toEqual({ success: false, message: '即梦渠道的密钥格式为 AccessKeyID|SecretAccessKey，两者用 | 分隔' });
    expect(await create(ChannelType.Jimeng, 'AKLTabc|c2VjcmV0', 'jimeng-ok')).toMatchObject({ success: true });
  });

  it('checks every line of a batch of keys, and keys of an update', async () => {
    const batch = await call('POST', {
      mode: 'batch',
      type: ChannelType.Kling,
      name: 'kling-batch',
      key: 'ak1|sk1\nplain-key',
      models: 'kling-v2-1',
    });
    expect(batch).toMatchObject({ success: false, message: expect.stringContaining('AccessKey|SecretKey') });
    const id = (await stored('kling-ok'))!.id;
    const update = await call('PUT', { id, key: 'not-a-pair' });
    expect(update).toMatchObject({ success: false, message: expect.stringContaining('AccessKey|SecretKey') });
    expect((await stored('kling-ok'))?.key).toBe('AK123|SK456');
    // A name change keeps the stored (valid) key and saves.
    expect(await call('PUT', { id, name: 'kling-renamed' })).toMatchObject({ success: true });
  });

  it('leaves types with a plain API key alone (Sora, Vidu, Doubao video)', async () => {
    for (const type of [ChannelType.Sora, ChannelType.Vidu, ChannelType.DoubaoVideo])
      expect(await create(type, 'sk-plain-api-key', `plain-${type}`)).toMatchObject({ success: true });
  });

  it('answers the console (tRPC) with the message code it translates', async () => {
    const caller = trpcCaller(t, adminUser);
    await expect(
      caller.channels.create({ type: ChannelType.Kling, name: 'trpc', key: 'plain', models: 'kling-v2-1' }),
    ).rejects.toMatchObject({ cause: { messageCode: 'channel.kling_key_format' } });
  });

  it('answers fetch models for the types whose API lists none with their usual names, asking nothing', async () => {
    // Port 9 answers nothing: a fetch that went upstream would fail.
    for (const [type, first] of [
      [ChannelType.Kling, 'kling-v2-1'],
      [ChannelType.Vidu, 'viduq1'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/channel/fetch_models',
        headers: admin,
        payload: { type, key: 'ak|sk', base_url: 'http://127.0.0.1:9' },
      });
      const body = res.json() as { success: boolean; data: string[] };
      expect(body.success, String(type)).toBe(true);
      expect(body.data).toContain(first);
    }
  });
});
