import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      'retry-model': 1,
      'dead-model': 1,
      'keep-model': 1,
      'multi-model': 1,
      'turn-model': 1,
      'bad-req': 1,
    }),
    RetryTimes: '2',
    AutomaticDisableChannelEnabled: 'true',
  });
});
afterAll(async () => {
  await h.close();
});

const inboxTitles = async (userId: number) =>
  (
    await h.deps.db
      .selectFrom('message_recipients')
      .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
      .select('messages.title')
      .where('message_recipients.user_id', '=', userId)
      .execute()
  ).map((r) => r.title);

const channelRow = (id: number) =>
  h.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('retries and channel health', () => {
  it('a 500 from the first channel is retried on the next priority; the log names both', async () => {
    const failing = await insertChannel(h.deps, {
      name: 'failing',
      baseUrl: h.fake.url,
      models: ['retry-model'],
      priority: 10,
      modelMapping: { 'retry-model': 'fail-500' },
    });
    const good = await insertChannel(h.deps, {
      name: 'good',
      baseUrl: h.fake.url,
      models: ['retry-model'],
      priority: 0,
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const r = await h
      .client(token.key)
      .chat.completions.create({ model: 'retry-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0].message.content).toContain('w0');
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs).toHaveLength(1);
    expect(Number(l.logs[0].channel_id)).toBe(good);
    expect(JSON.parse(l.logs[0].other).admin_info.use_channel).toEqual([String(failing), String(good)]);
    expect((await channelRow(failing)).status).toBe(1);
  });

  it('a 400 is not retried and its reservation is refunded', async () => {
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['bad-req'],
      priority: 5,
      modelMapping: { 'bad-req': 'fail-400' },
    });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['bad-req'], priority: 0 });
    const user = await insertUser(h.deps, { quota: 1000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: 1000 });
    const before = h.fake.requests.length;
    await expect(
      h.client(token.key).chat.completions.create({ model: 'bad-req', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 400 });
    expect(h.fake.requests.length - before).toBe(1);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(Number(l.user.quota)).toBe(1000);
    expect(Number(l.token!.remain_quota)).toBe(1000);
    expect(l.logs).toHaveLength(0);
  });

  it('a 401 invalid key disables an auto-ban channel with the reason; the request succeeds elsewhere', async () => {
    const dead = await insertChannel(h.deps, {
      name: 'dead',
      key: 'fail-401-invalid-key',
      baseUrl: h.fake.url,
      models: ['dead-model'],
      priority: 10,
    });
    const good = await insertChannel(h.deps, {
      name: 'good',
      baseUrl: h.fake.url,
      models: ['dead-model'],
      priority: 0,
    });
    const user = await insertUser(h.deps);
    const root = await insertUser(h.deps, { role: 100 });
    const token = await insertToken(h.deps, user.id);
    const r = await h
      .client(token.key)
      .chat.completions.create({ model: 'dead-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices).toHaveLength(1);
    // Root hears about it in the inbox (sent off the request path).
    await expect
      .poll(async () => (await h.deps.services.messages.list({ page: 1, pageSize: 10 })).items.map((m) => m.title))
      .toContainEqual(expect.stringContaining(`#${dead}`));
    expect(await inboxTitles(root.id)).toEqual([expect.stringContaining('已被自动禁用')]);
    const row = await channelRow(dead);
    expect(row.status).toBe(3);
    const info = JSON.parse(row.other_info);
    expect(info.status_reason).toContain('Incorrect API key');
    expect(typeof info.status_time).toBe('number');
    const abilities = await h.deps.db.selectFrom('abilities').selectAll().where('channel_id', '=', dead).execute();
    expect(abilities.every((a) => a.enabled === 0)).toBe(true);
    // The routing index dropped it: the next request goes straight to the good channel.
    await h.drain();
    await h
      .client(token.key)
      .chat.completions.create({ model: 'dead-model', messages: [{ role: 'user', content: 'hi' }] });
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(JSON.parse(l.logs[1].other).admin_info.use_channel).toEqual([String(good)]);
  });

  it('a channel with auto_ban 0 stays enabled after a 401', async () => {
    const keep = await insertChannel(h.deps, {
      key: 'fail-401-invalid-key',
      baseUrl: h.fake.url,
      models: ['keep-model'],
      autoBan: false,
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await expect(
      h.client(token.key).chat.completions.create({ model: 'keep-model', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 401 });
    expect((await channelRow(keep)).status).toBe(1);
  });

  it('a dead key of a multi-key channel is marked auto-disabled alone, and kept (issue 28)', async () => {
    const keys = 'good-key-1\nfail-401-invalid-key\ngood-key-2';
    const multi = await insertChannel(h.deps, { key: keys, baseUrl: h.fake.url, models: ['multi-model'] });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const status = async () => JSON.parse((await channelRow(multi)).channel_info || '{}').multi_key_status_list ?? {};
    // Keys are picked at random: call until the dead one was hit (almost surely within a few calls).
    for (let i = 0; i < 60 && !(await status())['1']; i++)
      await h
        .client(token.key)
        .chat.completions.create({ model: 'multi-model', messages: [{ role: 'user', content: 'hi' }] });
    const row = await channelRow(multi);
    expect(row.status).toBe(1);
    expect(row.key).toBe(keys);
    expect(await status()).toEqual({ '1': 3 });
  });

  it('a multi-key channel set to take its keys in turn (multi_key_mode polling) uses each key once per round', async () => {
    await insertChannel(h.deps, {
      key: 'turn-key-a\nturn-key-b\nturn-key-c',
      baseUrl: h.fake.url,
      models: ['turn-model'],
      setting: { multi_key_mode: 'polling' },
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = h.fake.requests.length;
    for (let i = 0; i < 6; i++)
      await h
        .client(token.key)
        .chat.completions.create({ model: 'turn-model', messages: [{ role: 'user', content: 'hi' }] });
    const used = h.fake.requests.slice(before).map((r) => String(r.headers.authorization).replace('Bearer ', ''));
    expect(used.slice(0, 3).sort()).toEqual(['turn-key-a', 'turn-key-b', 'turn-key-c']);
    expect(used.slice(3)).toEqual(used.slice(0, 3));
  });

  it('a pinned channel (sk-KEY-ID) is for admins and never retried', async () => {
    const pin = await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['retry-model'],
      modelMapping: { 'retry-model': 'fail-500' },
    });
    const admin = await insertUser(h.deps, { role: 10 });
    const adminToken = await insertToken(h.deps, admin.id);
    const before = h.fake.requests.length;
    await expect(
      h
        .client(`${adminToken.key}-${pin}`)
        .chat.completions.create({ model: 'retry-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 500 });
    expect(h.fake.requests.length - before).toBe(1);
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await expect(
      h
        .client(`${token.key}-${pin}`)
        .chat.completions.create({ model: 'retry-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('per-channel settings', () => {
  it('param_override, system_prompt and model_mapping shape the upstream body', async () => {
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'shape-model': 1, 'map-model': 1, 'retry-model': 1 }) });
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['shape-model'],
      paramOverride: { temperature: 0.1, top_p: 0.5 },
      systemPrompt: 'You are terse.',
      modelMapping: { 'shape-model': 'upstream-shape' },
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await h.client(token.key).chat.completions.create({
      model: 'shape-model',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.9,
      // Unknown fields travel to the upstream untouched.
      ...({ custom_vendor_field: { a: 1 } } as object),
    });
    const sent = h.fake.requests.at(-1)!.body;
    expect(sent).toMatchObject({
      model: 'upstream-shape',
      temperature: 0.1,
      top_p: 0.5,
      custom_vendor_field: { a: 1 },
    });
    expect((sent.messages as { role: string; content: string }[])[0]).toEqual({
      role: 'system',
      content: 'You are terse.',
    });
  });

  it('status_code_mapping makes a 400 retryable; auto retry follows its status list', async () => {
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'mapped-400': 1, 'auto-400': 1 }) });
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['mapped-400'],
      priority: 9,
      modelMapping: { 'mapped-400': 'fail-400' },
      statusCodeMapping: { '400': '500' },
    });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['mapped-400'], priority: 1 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await expect(
      h.client(token.key).chat.completions.create({ model: 'mapped-400', messages: [{ role: 'user', content: 'hi' }] }),
    ).resolves.toBeDefined();

    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['auto-400'],
      priority: 9,
      modelMapping: { 'auto-400': 'fail-400' },
    });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['auto-400'], priority: 1 });
    await setOptions(h.deps, { 'global.auto_retry_enabled': 'true', 'global.auto_retry_status_codes': '4xx' });
    await expect(
      h.client(token.key).chat.completions.create({ model: 'auto-400', messages: [{ role: 'user', content: 'hi' }] }),
    ).resolves.toBeDefined();
    await setOptions(h.deps, { 'global.auto_retry_enabled': 'false' });
  });
});
