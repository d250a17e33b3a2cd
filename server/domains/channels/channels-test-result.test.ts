import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChannelTestResult } from '../../../shared/channel-test-result.ts';
import { Role } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/schemas/channels.ts';
import { startFakeOpenAI, type FakeUpstream } from '../../../scripts/fake-upstream/server.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setOption, trpcCaller } from '../../../test/users.ts';

/*
 * Issue 28, "broken channels look healthy": the last test's outcome is stored and listed (REST and
 * tRPC), base URLs without a scheme are refused on every write path, and the test picks a model the
 * channel is configured with. Real SQLite file, the fake OpenAI upstream on loopback.
 */

type Json = Record<string, unknown>;

describe('channel health in the list, base URLs, the test model', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let admin: Record<string, string>;
  let adminRow: { id: number; role: number };
  const base = () => fake.url.replace(/\/v1$/, '');

  const rest = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, payload: payload as Json, headers: admin });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const create = async (c: Json) =>
    (
      await t.deps.services.channels.create({
        type: 1,
        name: 'up',
        key: 'sk-good',
        models: 'gpt-4o-mini',
        base_url: base(),
        ...c,
      } as never)
    )[0];
  const listed = async (id: number) => {
    const page = await rest('GET', '/api/channel/?p=0&page_size=100');
    // new-api's GET /api/channel/ answers the page's channels as data.
    const items = page.body.data as Json[];
    return items.find((c) => c.id === id) as Json;
  };

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp();
    // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
    await setOption(t, 'ApiCompatContract', '2025-04');
    const a = await loginAs(t, Role.Admin);
    admin = a.headers;
    adminRow = { id: a.user.id, role: Role.Admin };
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('stores a failed test with its reason, time and latency; the list shows it; a pass clears it', async () => {
    const id = await create({ name: 'health' });
    const before = Math.floor(Date.now() / 1000);

    // The fake upstream answers 500 for a model carrying fail-500.
    const failed = await rest('GET', `/api/channel/test/${id}?model=gpt-4o-mini%2Bfail-500`);
    expect(failed.body.success).toBe(false);

    const row = await listed(id);
    // new-api's fields are all there, unchanged in meaning; test_result is added beside them.
    expect(row.test_time).toBeGreaterThanOrEqual(before);
    expect(row.response_time).toBe(0);
    const stored = readChannelTestResult(String(row.test_result));
    expect(stored).toMatchObject({ ok: false, message: failed.body.message });
    expect(stored?.reason?.code).toBe('channel.upstream_status_detail');
    expect(stored?.reason?.params.status).toBe(500);
    expect(stored?.time_ms).toBeGreaterThanOrEqual(0);

    // The console's list (tRPC) carries the same.
    const caller = trpcCaller(t, adminRow);
    const page = await caller.channels.list({ page: 1, pageSize: 100 });
    const item = page.items.find((c) => c.id === id);
    expect(readChannelTestResult(item?.test_result)?.ok).toBe(false);

    const passed = await caller.channels.test({ id });
    expect(passed.ok).toBe(true);
    const after = await listed(id);
    expect(readChannelTestResult(String(after.test_result))).toEqual({ ok: true, time_ms: expect.any(Number) });
    expect(after.response_time).toBeGreaterThanOrEqual(0);
  });

  it('records the outcome of every channel in a test-all run (as the scheduler runs it)', async () => {
    const good = await create({ name: 'all-good' });
    // An unreachable upstream: nothing listens on port 9 of loopback.
    const dead = await create({ name: 'all-dead', base_url: 'http://127.0.0.1:9' });
    await t.deps.services.channels.testAll();
    expect(readChannelTestResult(String((await listed(good)).test_result))?.ok).toBe(true);
    const deadResult = readChannelTestResult(String((await listed(dead)).test_result));
    expect(deadResult?.ok).toBe(false);
    expect(deadResult?.reason?.code).toBe('net.refused');
    expect(deadResult?.detail).toContain('ECONNREFUSED');
    expect((await listed(dead)).test_time).toBeGreaterThan(0);
  });

  it('refuses a base URL without a scheme on tRPC, REST POST and PUT; accepts http(s)://host[:port][/path]', async () => {
    const caller = trpcCaller(t, adminRow);
    const bad = { type: 1, name: 'no-scheme', key: 'sk-x', models: 'gpt-4o-mini', base_url: 'localhost:9100' };
    await expect(caller.channels.create(bad)).rejects.toThrow(MESSAGES.baseUrl);
    for (const url of ['ftp://host', 'http://', 'http://host:9100/v1?x=1', 'http://user:pw@host']) {
      await expect(caller.channels.create({ ...bad, base_url: url })).rejects.toThrow(MESSAGES.baseUrl);
    }

    const post = await rest('POST', '/api/channel/', bad);
    expect(post).toEqual({ status: 200, body: { success: false, message: MESSAGES.baseUrl } });
    const none = await t.deps.db.selectFrom('channels').select('id').where('name', '=', 'no-scheme').execute();
    expect(none).toEqual([]);

    const id = await create({ name: 'edit-me' });
    const put = await rest('PUT', '/api/channel/', { id, base_url: 'localhost:9100' });
    expect(put).toEqual({ status: 200, body: { success: false, message: MESSAGES.baseUrl } });
    await expect(caller.channels.update({ id, base_url: 'localhost:9100' })).rejects.toThrow(MESSAGES.baseUrl);
    expect((await listed(id)).base_url).toBe(base());

    // With a scheme it is saved (the /v1 warning is the form's question, not a refusal); empty means the default.
    const ok = await rest('POST', '/api/channel/', {
      ...bad,
      name: 'with-scheme',
      base_url: 'http://localhost:9100/v1',
    });
    expect(ok.body).toMatchObject({ success: true });
    expect((await rest('PUT', '/api/channel/', { id, base_url: 'https://api.example.com:8443/openai/' })).body).toEqual(
      expect.objectContaining({ success: true }),
    );
    expect((await listed(id)).base_url).toBe('https://api.example.com:8443/openai');
    expect((await rest('PUT', '/api/channel/', { id, base_url: '' })).body.success).toBe(true);
  });

  it('tests with the channel test model, else the first model it lists (never a name it does not)', async () => {
    const withTestModel = await create({ name: 'tm', models: 'alpha-model,beta-model', test_model: 'beta-model' });
    fake.requests.length = 0;
    expect((await rest('GET', `/api/channel/test/${withTestModel}`)).body.success).toBe(true);
    expect(fake.requests.at(-1)?.body.model).toBe('beta-model');

    const listedOnly = await create({ name: 'first', models: 'local-llama,other-model' });
    expect((await rest('GET', `/api/channel/test/${listedOnly}`)).body.success).toBe(true);
    expect(fake.requests.at(-1)?.body.model).toBe('local-llama');
  });
});
