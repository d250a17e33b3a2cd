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
let channelId: number;
const USER_QUOTA = 10_000_000;
const TOKEN_QUOTA = 5_000_000;

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'test-chat': 2.5, 'test-embed': 0.5, 'test-instruct': 1.5, 'test-cache': 2 }),
    CompletionRatio: JSON.stringify({ 'test-chat': 4, 'test-instruct': 2 }),
    CacheRatio: JSON.stringify({ 'test-cache': 0.1 }),
    ModelPrice: JSON.stringify({ 'test-fixed': 0.004 }),
    GroupRatio: JSON.stringify({ default: 1, vip: 1.5 }),
    UserUsableGroups: JSON.stringify({ default: '默认', vip: 'VIP' }),
  });
  const models = ['test-chat', 'test-embed', 'test-instruct', 'test-fixed', 'test-cache', 'test-cache+cache-40'];
  channelId = await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models,
    groups: ['default', 'vip'],
    modelMapping: { 'test-cache': 'test-cache+cache-40' },
  });
});
afterAll(async () => {
  await h.close();
});

/** ratio-mode price, written out independently of the implementation */
const ratioQuota = (p: number, c: number, cached: number, mr: number, cr: number, cacheR: number, gr: number) =>
  Math.round((p - cached + cached * cacheR + c * cr) * mr * gr);

async function freshPayer(group = '') {
  const user = await insertUser(h.deps, { quota: USER_QUOTA });
  const token = await insertToken(h.deps, user.id, { remainQuota: TOKEN_QUOTA, group });
  return { user, token, client: h.client(token.key) };
}

async function expectConsistent(userId: number, tokenId: number, expectedQuotas: number[]) {
  await h.drain();
  const l = await ledger(h.deps, userId, tokenId);
  // Each request is settled after its answer was sent: two in a row may write their rows in either order.
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  expect(sorted(l.logs.map((x) => Number(x.quota)))).toEqual(sorted(expectedQuotas));
  const used = expectedQuotas.reduce((a, b) => a + b, 0);
  expect(Number(l.user.used_quota)).toBe(used);
  expect(Number(l.user.quota)).toBe(USER_QUOTA - used);
  expect(Number(l.user.request_count)).toBe(expectedQuotas.length);
  expect(Number(l.token!.used_quota)).toBe(used);
  expect(Number(l.token!.remain_quota)).toBe(TOKEN_QUOTA - used);
  expect(l.reservations).toHaveLength(0);
  return l;
}

describe('relay billing through the OpenAI SDK', () => {
  it('chat JSON: charged to the unit and logged with every field', async () => {
    const { user, token, client } = await freshPayer();
    const before = await h.deps.db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    const r = await client.chat.completions.create({
      model: 'test-chat',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    const u = r.usage!;
    const q = ratioQuota(u.prompt_tokens, u.completion_tokens, 0, 2.5, 4, 1, 1);
    const l = await expectConsistent(user.id, token.id, [q]);
    const log = l.logs[0];
    expect(log).toMatchObject({
      type: 2,
      channel_id: channelId,
      token_id: token.id,
      token_name: 'test-token',
      username: user.username,
      model_name: 'test-chat',
      group: 'default',
      prompt_tokens: u.prompt_tokens,
      completion_tokens: u.completion_tokens,
      is_stream: 0,
      ip: '',
      content: '模型倍率 2.5，补全倍率 4，分组倍率 1',
    });
    expect(log.request_id).not.toBe('');
    const other = JSON.parse(log.other);
    expect(other).toMatchObject({
      model_ratio: 2.5,
      completion_ratio: 4,
      group_ratio: 1,
      model_price: -1,
      cache_tokens: 0,
    });
    expect(other.admin_info.use_channel).toEqual([String(channelId)]);
    expect(other.is_model_mapped).toBe(false);
    expect(typeof other.frt).toBe('number');
    const after = await h.deps.db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    expect(Number(after.used_quota) - Number(before.used_quota)).toBe(q);
  });

  it('chat stream: chunks arrive, usage only when asked, quota from the upstream usage', async () => {
    const { user, token, client } = await freshPayer();
    const plain = await client.chat.completions.create({
      model: 'test-chat',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    let sawUsage = false;
    for await (const c of plain) {
      text += c.choices[0]?.delta?.content ?? '';
      if (c.usage) sawUsage = true;
    }
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(sawUsage).toBe(false);
    const withUsage = await client.chat.completions.create({
      model: 'test-chat',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage;
    for await (const c of withUsage) if (c.usage) usage = c.usage;
    expect(usage).toBeDefined();
    const q = ratioQuota(usage!.prompt_tokens, usage!.completion_tokens, 0, 2.5, 4, 1, 1);
    const l = await expectConsistent(user.id, token.id, [q, q]);
    expect(l.logs.every((x) => x.is_stream === 1)).toBe(true);
    expect(h.fake.requests.at(-2)!.body.stream_options).toEqual({ include_usage: true });
  });

  it('completions and embeddings', async () => {
    const { user, token, client } = await freshPayer();
    const c = await client.completions.create({ model: 'test-instruct', prompt: 'Say this is a test' });
    expect(c.choices[0].text).toContain('w0');
    const e = await client.embeddings.create({ model: 'test-embed', input: ['one two three', 'four'] });
    expect(e.data).toHaveLength(2);
    const qc = ratioQuota(c.usage!.prompt_tokens, c.usage!.completion_tokens, 0, 1.5, 2, 1, 1);
    const qe = ratioQuota(e.usage.prompt_tokens, 0, 0, 0.5, 1, 1, 1);
    await expectConsistent(user.id, token.id, [qc, qe]);
  });

  it('fixed price, group ratio and cache tokens', async () => {
    const { user, token, client } = await freshPayer('vip');
    await client.chat.completions.create({ model: 'test-fixed', messages: [{ role: 'user', content: 'x' }] });
    const r = await client.chat.completions.create({
      model: 'test-cache',
      messages: [{ role: 'user', content: 'cached?' }],
    });
    const u = r.usage!;
    expect(u.prompt_tokens_details?.cached_tokens).toBe(40);
    const fixed = Math.round(0.004 * 500_000 * 1.5);
    const cached = ratioQuota(u.prompt_tokens, u.completion_tokens, 40, 2, 1, 0.1, 1.5);
    const l = await expectConsistent(user.id, token.id, [fixed, cached]);
    const fixedRow = l.logs.find((x) => x.model_name === 'test-fixed')!;
    expect(fixedRow.content).toBe('模型价格 0.004，分组倍率 1.5');
    expect(fixedRow.group).toBe('vip');
    const other = JSON.parse(l.logs.find((x) => x.model_name === 'test-cache')!.other);
    expect(other).toMatchObject({ cache_tokens: 40, cache_ratio: 0.1, group_ratio: 1.5, is_model_mapped: true });
    expect(other.upstream_model_name).toBe('test-cache+cache-40');
  });

  it('lists the models the key may use', async () => {
    const { client } = await freshPayer();
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toContain('test-chat');
    const one = await client.models.retrieve('test-chat');
    expect(one.id).toBe('test-chat');
    await expect(client.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
    const limited = await insertToken(h.deps, (await insertUser(h.deps)).id, { modelLimits: ['test-embed'] });
    const only = await h.client(limited.key).models.list();
    expect(only.data.map((m) => m.id)).toEqual(['test-embed']);
  });

  it('records hourly quota_data when data export is on', async () => {
    await h.drain();
    const rows = await h.deps.db.selectFrom('quota_data').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const logs = await h.deps.db.selectFrom('logs').select(['quota']).where('type', '=', 2).execute();
    expect(rows.reduce((s, r) => s + Number(r.quota), 0)).toBe(logs.reduce((s, r) => s + Number(r.quota), 0));
  });
});

describe('unlimited tokens', () => {
  it('bill the user (reservation skipped for a rich user) and count the token usage', async () => {
    const user = await insertUser(h.deps, { quota: USER_QUOTA });
    const token = await insertToken(h.deps, user.id, { unlimited: true, remainQuota: 0 });
    const r = await h.client(token.key).chat.completions.create({
      model: 'test-chat',
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 50,
    });
    const q = ratioQuota(r.usage!.prompt_tokens, r.usage!.completion_tokens, 0, 2.5, 4, 1, 1);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(Number(l.logs[0].quota)).toBe(q);
    expect(Number(l.user.quota)).toBe(USER_QUOTA - q);
    expect(Number(l.token!.used_quota)).toBe(q);
    expect(Number(l.token!.remain_quota)).toBe(0);
    expect(l.reservations).toHaveLength(0);
  });
});
