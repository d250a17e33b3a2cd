import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../shared/constants.ts';
import { type FakeUpstream, startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../../test/relay-fixtures.ts';
import { backgroundJobs, jobSchedulerOf } from './background-jobs.ts';
import { createJobScheduler } from './scheduler.ts';

/*
 * The three periodic jobs through the real services, database and HTTP probes:
 * each test ticks a fresh scheduler (a freshly started instance) on an empty
 * lease table, so every enabled job is due once.
 */

let t: TestApp;
let fake: FakeUpstream;
const nowS = () => Math.floor(Date.now() / 1000);

async function runDueJobs() {
  const scheduler = createJobScheduler(t.deps, backgroundJobs(t.deps));
  await scheduler.tick();
  await scheduler.stop();
}

const channel = (id: number) =>
  t.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestApp();
  // The app's own timer must not race the ticks below.
  await jobSchedulerOf(t.deps)!.stop();
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await t.deps.db.deleteFrom('job_leases').execute();
  await t.deps.db.deleteFrom('channels').execute();
  await t.deps.db.deleteFrom('abilities').execute();
  await setOptions(t.deps, {
    ChannelTestIntervalMinutes: '0',
    ChannelBalanceRefreshIntervalMinutes: '0',
    LogRetentionDays: '0',
    AutomaticEnableChannelEnabled: 'false',
    AutomaticDisableChannelEnabled: 'false',
  });
});

describe('channel test job (ChannelTestIntervalMinutes)', () => {
  /** A healthy channel, one that recovered after being auto-disabled, and a dead one. */
  async function threeChannels() {
    const healthy = await insertChannel(t.deps, { name: 'healthy', baseUrl: fake.url, models: ['job-a'] });
    const recovered = await insertChannel(t.deps, { name: 'recovered', baseUrl: fake.url, models: ['job-b'] });
    await t.deps.services.channels.setStatus([recovered], ChannelStatus.AutoDisabled, 'invalid key');
    const dead = await insertChannel(t.deps, {
      name: 'dead',
      key: 'sk-dead+fail-500',
      baseUrl: fake.url,
      models: ['job-c'],
    });
    return { healthy, recovered, dead };
  }

  it('does nothing while the interval is 0', async () => {
    const { healthy } = await threeChannels();
    const before = fake.requests.length;
    await runDueJobs();
    expect(fake.requests.length).toBe(before);
    expect((await channel(healthy)).test_time).toBe(0);
  });

  it('re-enables a recovered auto-disabled channel and disables a failing one when both options are on', async () => {
    const { healthy, recovered, dead } = await threeChannels();
    const root = await insertUser(t.deps, { role: Role.Root });
    const user = await insertUser(t.deps, { quota: 10_000_000 });
    const token = await insertToken(t.deps, user.id, { unlimited: true });
    await setOptions(t.deps, { ModelRatio: JSON.stringify({ 'job-b': 1 }) });
    const chat = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.key}` },
        payload: { model: 'job-b', messages: [{ role: 'user', content: 'hi' }] },
      });
    expect((await chat()).statusCode).toBe(503);

    await setOptions(t.deps, {
      ChannelTestIntervalMinutes: '10',
      AutomaticEnableChannelEnabled: 'true',
      AutomaticDisableChannelEnabled: 'true',
    });
    await runDueJobs();

    expect((await channel(healthy)).status).toBe(ChannelStatus.Enabled);
    expect((await channel(healthy)).test_time).toBeGreaterThan(0);
    expect((await channel(recovered)).status).toBe(ChannelStatus.Enabled);
    const deadRow = await channel(dead);
    expect(deadRow.status).toBe(ChannelStatus.AutoDisabled);
    expect(JSON.parse(deadRow.other_info)).toMatchObject({ status_reason: expect.any(String) });
    // Root is told in the inbox, as when a relayed request disables a channel.
    const inboxTitles = async () =>
      (
        await t.deps.db
          .selectFrom('message_recipients')
          .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
          .select('messages.title')
          .where('message_recipients.user_id', '=', root.id)
          .execute()
      ).map((r) => r.title);
    let titles: string[] = [];
    for (let i = 0; i < 50 && titles.length === 0; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      titles = await inboxTitles();
    }
    expect(titles).toEqual([expect.stringMatching(/「dead」.*已被自动禁用/)]);
    // Beside the words, what the console renders in its own language (issue 22): the notice's
    // codes, and the channel's reason as a code of its own.
    const reason = JSON.parse(deadRow.other_info) as { status_reason: string; status_message: unknown };
    expect(reason.status_message).toEqual({
      code: 'channel.upstream_status_detail',
      params: { status: expect.any(Number), detail: expect.any(String) },
    });
    const notice = await t.deps.db
      .selectFrom('messages')
      .select('notice')
      .where('title', '=', titles[0])
      .executeTakeFirstOrThrow();
    expect(JSON.parse(notice.notice)).toEqual({
      title: { code: 'notice.channel_disabled_title', params: { name: 'dead', id: dead } },
      content: {
        code: 'notice.channel_disabled',
        params: { name: 'dead', id: dead, time: expect.any(String), reason: reason.status_reason },
      },
    });
    // What a user notices: the recovered channel serves its model again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      status = (await chat()).statusCode;
    }
    expect(status).toBe(200);
  });

  it('tests but leaves channel statuses alone when the automatic options are off', async () => {
    const { healthy, recovered, dead } = await threeChannels();
    await setOptions(t.deps, { ChannelTestIntervalMinutes: '10' });
    await runDueJobs();
    expect((await channel(recovered)).test_time).toBeGreaterThan(0);
    expect((await channel(recovered)).status).toBe(ChannelStatus.AutoDisabled);
    expect((await channel(dead)).status).toBe(ChannelStatus.Enabled);
    expect((await channel(healthy)).status).toBe(ChannelStatus.Enabled);
  });

  it('leaves manually disabled channels untested', async () => {
    const off = await insertChannel(t.deps, { name: 'off', baseUrl: fake.url, models: ['job-d'] });
    await t.deps.services.channels.setStatus([off], ChannelStatus.ManuallyDisabled);
    await setOptions(t.deps, { ChannelTestIntervalMinutes: '10', AutomaticEnableChannelEnabled: 'true' });
    await runDueJobs();
    const row = await channel(off);
    expect(row.status).toBe(ChannelStatus.ManuallyDisabled);
    expect(row.test_time).toBe(0);
  });
});

describe('balance refresh job (ChannelBalanceRefreshIntervalMinutes)', () => {
  let billing: Server;
  let billingUrl: string;

  beforeAll(async () => {
    // OpenAI's legacy billing endpoints: $120 granted, 2050 cents used.
    billing = createServer((req, res) => {
      const send = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/v1/dashboard/billing/subscription') return send({ hard_limit_usd: 120 });
      if (req.url?.startsWith('/v1/dashboard/billing/usage')) return send({ total_usage: 2050 });
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => billing.listen(0, '127.0.0.1', r));
    billingUrl = `http://127.0.0.1:${(billing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => billing.close(() => r())));

  it('stores the upstream balance of enabled channels when on, nothing when off', async () => {
    const on = await insertChannel(t.deps, { name: 'billed', baseUrl: billingUrl, models: ['job-e'] });
    const off = await insertChannel(t.deps, { name: 'billed-off', baseUrl: billingUrl, models: ['job-f'] });
    await t.deps.services.channels.setStatus([off], ChannelStatus.ManuallyDisabled);

    await runDueJobs();
    expect((await channel(on)).balance_updated_time).toBe(0);

    await setOptions(t.deps, { ChannelBalanceRefreshIntervalMinutes: '60' });
    const before = nowS();
    await runDueJobs();
    const row = await channel(on);
    expect(row.balance).toBeCloseTo(99.5);
    expect(row.balance_updated_time).toBeGreaterThanOrEqual(before);
    expect((await channel(off)).balance_updated_time).toBe(0);
  });
});

describe('log retention job (LogRetentionDays)', () => {
  it('deletes logs older than the retention only, in batches', async () => {
    await t.deps.db.deleteFrom('logs').execute();
    const day = 86_400;
    const now = nowS();
    // More old rows than one delete batch, so the job has to loop.
    const old = Array.from({ length: 2_500 }, (_, i) => ({ created_at: now - 40 * day + i, content: 'old' }));
    for (let i = 0; i < old.length; i += 500)
      await t.deps.db
        .insertInto('logs')
        .values(old.slice(i, i + 500))
        .execute();
    await t.deps.db
      .insertInto('logs')
      .values([
        { created_at: now - 31 * day, content: 'just expired' },
        { created_at: now - 29 * day, content: 'kept' },
        { created_at: now, content: 'today' },
      ])
      .execute();
    const count = async () => {
      const rows = await t.deps.db.selectFrom('logs').select('content').orderBy('created_at').execute();
      return rows.map((r) => r.content);
    };

    await runDueJobs();
    expect((await count()).length).toBe(2_503);

    await setOptions(t.deps, { LogRetentionDays: '30' });
    await runDueJobs();
    expect(await count()).toEqual(['kept', 'today']);
  });
});
