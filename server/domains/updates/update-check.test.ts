import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setOption, setupRoot, trpcCaller } from '../../../test/users.ts';
import { isNewer } from './update-check.service.ts';

/** A release feed answering like GitHub's "latest release" (or failing, as `answer` says). */
function startFeed() {
  const feed = { status: 200, tag: 'v99.1.0', requests: 0 };
  const server: Server = createServer((_req, res) => {
    feed.requests++;
    res.writeHead(feed.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        feed.status === 200
          ? {
              tag_name: feed.tag,
              name: feed.tag,
              html_url: `https://example.com/releases/${feed.tag}`,
              body: '- faster relay\n- new channel types',
              published_at: '2026-11-20T10:00:00Z',
            }
          : { message: 'Not Found' },
      ),
    );
  });
  return { feed, server };
}

describe('update check', () => {
  const { feed, server } = startFeed();
  let t: TestApp;
  let root: { id: number; role: number };

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repos/x/switchyard/releases/latest`;
    t = await createTestApp({ updateFeedUrl: url, version: 'v1.4.0' });
    root = await setupRoot(t);
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('compares release tags as versions', () => {
    expect(isNewer('v1.10.0', 'v1.9.3')).toBe(true);
    expect(isNewer('v1.4.0', 'v1.4.0')).toBe(false);
    expect(isNewer('1.3.9', 'v1.4.0')).toBe(false);
    expect(isNewer('nightly', 'v1.4.0')).toBe(false);
  });

  it('tells root the newest release against the running version', async () => {
    const info = await trpcCaller(t, root).options.checkUpdate();
    expect(info).toEqual({
      current: 'v1.4.0',
      latest: 'v99.1.0',
      newer: true,
      url: 'https://example.com/releases/v99.1.0',
      notes: '- faster relay\n- new channel types',
      publishedAt: '2026-11-20T10:00:00Z',
    });
    feed.tag = 'v1.4.0';
    expect(await trpcCaller(t, root).options.checkUpdate()).toMatchObject({ latest: 'v1.4.0', newer: false });
  });

  it('says why when the feed fails, and is root-only', async () => {
    feed.status = 404;
    await expect(trpcCaller(t, root).options.checkUpdate()).rejects.toThrow('检查更新失败：HTTP 404');
    feed.status = 200;
    const unconfigured = await createTestApp({ updateFeedUrl: '' });
    const unconfiguredRoot = await setupRoot(unconfigured);
    await expect(trpcCaller(unconfigured, unconfiguredRoot).options.checkUpdate()).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: '此安装未设置版本更新检查',
      cause: { technical: expect.stringContaining('UPDATE_FEED_URL') },
    });
    await unconfigured.close();
    // A feed nobody answers at (a loopback port just closed): a sentence, the raw error as detail.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const unreachable = await createTestApp({ updateFeedUrl: `http://127.0.0.1:${port}/releases/latest` });
    const unreachableRoot = await setupRoot(unreachable);
    await expect(trpcCaller(unreachable, unreachableRoot).options.checkUpdate()).rejects.toMatchObject({
      message: `无法连接到版本发布源：连接被拒绝（127.0.0.1:${port}）`,
      cause: { technical: expect.stringContaining('ECONNREFUSED') },
    });
    await unreachable.close();
    const admin = await createUser(t, { role: Role.Admin });
    await expect(trpcCaller(t, { id: admin.id, role: Role.Admin }).options.checkUpdate()).rejects.toThrow();
  });

  it('with UpdateCheckEnabled, announces a newer release to root in the inbox once', async () => {
    feed.tag = 'v99.2.0';
    const inbox = () =>
      t.deps.db
        .selectFrom('message_recipients')
        .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
        .select(['messages.title', 'messages.content'])
        .where('message_recipients.user_id', '=', root.id)
        .execute();
    await t.deps.services.updates.announceNewer();
    expect(await inbox()).toEqual([]); // the switch is off by default
    await setOption(t, 'UpdateCheckEnabled', 'true');
    await t.deps.services.updates.announceNewer();
    await t.deps.services.updates.announceNewer();
    const got = await inbox();
    expect(got).toHaveLength(1);
    expect(got[0].title).toBe('Switchyard 有新版本 v99.2.0');
    expect(got[0].content).toContain('https://example.com/releases/v99.2.0');
    // Beside the words, what the console renders in its own language (issue 22).
    const inboxApi = trpcCaller(t, root).inbox;
    const [item] = (await inboxApi.list({ page: 1, pageSize: 10 })).items;
    expect(item.notice).toEqual({
      title: { code: 'notice.update_title', params: { version: 'v99.2.0' } },
      content: {
        code: 'notice.update',
        params: {
          current: 'v1.4.0',
          latest: 'v99.2.0',
          url: 'https://example.com/releases/v99.2.0',
          notes: '\n\n- faster relay\n- new channel types',
        },
      },
    });
    expect((await inboxApi.get({ id: item.id })).notice).toEqual(item.notice);
    // An administrator who edits it makes the words their own: no stored notice any more.
    await t.deps.services.messages.update(item.id, { title: 'Release', content: 'edited', format: 'markdown' });
    expect((await inboxApi.get({ id: item.id })).notice).toBeNull();
  });
});
