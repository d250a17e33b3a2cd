import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { LogType } from '../../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { login, restHeaders, setupRoot } from '../../../test/users.ts';

/*
 * Issue 39, "a key in clear on the console": an upstream's 401 may quote the key it was sent
 * ("Incorrect API key provided: sk-…"). Every path that keeps or passes on upstream text is driven
 * here against the fake upstream's `leak-key` answer, with the site's default monitoring settings:
 * the relay (a multi-key channel's dead key, a single-key channel auto-disabled, the client's error,
 * error log rows, root's notice), the admin's channel test, the test-all run, the model fetch. Each
 * answer is checked, and at the end every row of every table (but the channels' key column) is
 * searched for any of the keys.
 */

const secret = (name: string) => `sk-${name}-7c6b5a4f3e2d1c0b9a8f`;
const dead = (name: string) => `${secret(name)}+fail-401-invalid-key+leak-key`;
const SECRETS = ['multi', 'single', 'test', 'all-a', 'all-b', 'lone', 'fetch'].map(secret);
/** What may never be found: the part after `sk-`, which the generic `sk-` pattern would not catch alone. */
const cores = SECRETS.map((s) => s.slice(3));

const leaks = (value: unknown) => {
  const text = JSON.stringify(value);
  return cores.filter((c) => text.includes(c));
};

let h: RelayHarness;
let admin: Record<string, string>;
let userKey: string;

beforeAll(async () => {
  h = await startRelayHarness();
  await setupRoot(h.t);
  admin = restHeaders(await login(h.t, 'root', 'RootPass123!'));
  // Prices only: the monitoring switches stay as a new install has them.
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'm-multi': 1, 'm-single': 1, 'm-test': 1, 'm-all': 1, 'm-lone': 1 }),
  });
  const user = await insertUser(h.deps);
  userKey = (await insertToken(h.deps, user.id)).key;
});
afterAll(() => h.close());

const rest = async (method: 'GET' | 'POST', url: string, payload?: object) =>
  (await h.t.app.inject({ method, url, headers: admin, payload })).json() as {
    success: boolean;
    message: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several routes, read field by field
    data: any;
  };

const row = (id: number) => h.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ask = (model: string) =>
  h.client(userKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('upstream error text that quotes a key', () => {
  it('a multi-key channel: the key reason, the key list and the retried error row are masked', async () => {
    const id = await insertChannel(h.deps, {
      key: `${dead('multi')}\nsk-fine-key-0001`,
      baseUrl: h.fake.url,
      models: ['m-multi'],
      setting: { multi_key_mode: 'polling' },
    });
    const answer = await ask('m-multi');
    expect(answer.choices[0].message.content).toBeTruthy();
    const info = JSON.parse((await row(id)).channel_info) as { multi_key_disabled_reason: Record<string, string> };
    expect(info.multi_key_disabled_reason['0']).toContain('Incorrect API key provided: ***');
    const keys = await rest('POST', '/api/channel/multi_key/manage', { channel_id: id, action: 'get_key_status' });
    expect(keys.data.keys[0]).toMatchObject({ status: 3, reason: expect.stringContaining('***') });
    expect(leaks(keys)).toEqual([]);
  });

  it("a single-key channel: the client's error, the channel's reason and root's notice are masked", async () => {
    const id = await insertChannel(h.deps, { key: dead('single'), baseUrl: h.fake.url, models: ['m-single'] });
    const failed = await ask('m-single').catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain('Incorrect API key provided: ***');
    expect(leaks((failed as Error).message)).toEqual([]);
    const r = await row(id);
    expect(r.status).toBe(3);
    expect(JSON.parse(r.other_info).status_reason).toContain('Incorrect API key provided: ***');
    const listed = await rest('GET', '/api/channel/?p=0&page_size=50');
    expect(leaks(listed)).toEqual([]);
    // The notice is written after the channel (never delaying the relay): root's inbox, then the message itself.
    await expect
      .poll(async () => (await rest('GET', '/api/user/messages?p=1&page_size=50')).data.items?.length ?? 0)
      .toBeGreaterThan(0);
    const inbox = await rest('GET', '/api/user/messages?p=1&page_size=50');
    const notes = await Promise.all(
      (inbox.data.items as { id: number }[]).map((m) => rest('GET', `/api/user/messages/${m.id}`)),
    );
    expect(JSON.stringify(notes)).toContain('Incorrect API key provided: ***');
    expect(leaks([inbox, notes])).toEqual([]);
  });

  it('the error log rows (type 6) are masked, as the admin reads them', async () => {
    await h.drain();
    const logs = await rest('GET', `/api/log/?type=${LogType.Error}&p=1&page_size=50`);
    expect(JSON.stringify(logs)).toContain('Incorrect API key provided: ***');
    expect(leaks(logs)).toEqual([]);
  });

  it("the admin's channel test: its answer and the stored result are masked", async () => {
    const id = await insertChannel(h.deps, { key: dead('test'), baseUrl: h.fake.url, models: ['m-test'] });
    const tested = await rest('GET', `/api/channel/test/${id}`);
    expect(tested.success).toBe(false);
    expect(tested.message).toContain('***');
    expect(leaks(tested)).toEqual([]);
    expect(JSON.parse((await row(id)).test_result).message).toContain('Incorrect API key provided: ***');
  });

  it('the test-all run: a marked key, an auto-disabled channel and its notice are masked', async () => {
    const multi = await insertChannel(h.deps, {
      key: `${dead('all-a')}\n${dead('all-b')}`,
      baseUrl: h.fake.url,
      models: ['m-all'],
    });
    const lone = await insertChannel(h.deps, { key: dead('lone'), baseUrl: h.fake.url, models: ['m-lone'] });
    expect((await rest('GET', '/api/channel/test')).success).toBe(true);
    await h.deps.services.channels.whenTestsIdle();
    const info = JSON.parse((await row(multi)).channel_info) as { multi_key_disabled_reason: Record<string, string> };
    expect(Object.values(info.multi_key_disabled_reason).join()).toContain('***');
    expect((await row(lone)).status).toBe(3);
    expect(JSON.parse((await row(lone)).other_info).status_reason).toContain('***');
  });

  it("the model fetch's failure is masked", async () => {
    const fetched = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/fetch_models',
      headers: admin,
      payload: { base_url: h.fake.url, type: 1, key: dead('fetch') },
    });
    expect(fetched.body).toContain('***');
    expect(leaks(fetched.body)).toEqual([]);
  });

  it('no stored row holds a key anywhere but the channels’ key column', async () => {
    await h.drain();
    // Every table of this app's database, on either dialect; on PostgreSQL the introspection lists every schema's
    // tables (other test apps run beside this one), so only this app's schema is kept.
    const schema =
      h.deps.dbType === 'postgres'
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(h.deps.db)).rows[0].s
        : undefined;
    const tables = (await h.deps.db.introspection.getTables({ withInternalKyselyTables: true })).filter(
      (t) => !t.isView && t.schema === schema,
    );
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['channels', 'logs', 'messages']));
    const found: string[] = [];
    for (const { name } of tables) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(h.deps.db)).rows;
      for (const r of rows) {
        const kept = name === 'channels' ? { ...r, key: '' } : r;
        for (const c of leaks(kept)) found.push(`${name}: ${c}`);
      }
    }
    expect(found).toEqual([]);
    // The scan did see the reasons it checks.
    const notices = (await sql<{ n: number }>`select count(*) as n from messages`.execute(h.deps.db)).rows[0];
    expect(Number(notices.n)).toBeGreaterThan(0);
  });

  it('reasons stored before the masking are masked as the key list and the channel list show them', async () => {
    const id = await insertChannel(h.deps, {
      key: `sk-old-one-1234567890ab\nsk-old-two-1234567890ab`,
      baseUrl: h.fake.url,
      models: ['m-multi'],
    });
    const raw = 'Incorrect API key provided: sk-old-one-1234567890ab.';
    const info = JSON.parse((await row(id)).channel_info) as Record<string, object>;
    await h.deps.db
      .updateTable('channels')
      .set({
        channel_info: JSON.stringify({
          ...info,
          multi_key_status_list: { 0: 3 },
          multi_key_disabled_reason: { 0: raw },
          multi_key_disabled_time: { 0: 1 },
        }),
        other_info: JSON.stringify({ status_reason: raw, status_time: 1 }),
      })
      .where('id', '=', id)
      .execute();
    const keys = await rest('POST', '/api/channel/multi_key/manage', { channel_id: id, action: 'get_key_status' });
    const one = await rest('GET', `/api/channel/${id}`);
    const listed = await rest('GET', '/api/channel/?p=0&page_size=50');
    expect(keys.data.keys[0].reason).toBe('Incorrect API key provided: ***.');
    for (const answer of [keys, one, listed]) expect(JSON.stringify(answer)).not.toContain('old-one-1234567890ab');
  });
});
