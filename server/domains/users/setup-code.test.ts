import { afterEach, describe, expect, it } from 'vitest';
import { createKeptDatabase, createTestApp, type TestApp, type TestAppOptions } from '../../../test/app.ts';

/*
 * Issue 39: a fresh instance listening on 0.0.0.0 must not make whoever reaches the wizard first root.
 * From another machine the wizard needs the setup code printed in the server log at start; on the
 * server itself (loopback, no proxy) it does not. REST (new-api's POST /api/setup) and tRPC alike.
 */

const REMOTE = '203.0.113.7';
const CODE_REQUIRED = '请输入初始化码：它打印在服务器的启动日志中（在服务器本机上打开时无需填写）';
const CODE_WRONG = '初始化码错误：请使用服务器启动日志中打印的初始化码';
const WIZARD = { username: 'admin', password: 'Secret123', confirmPassword: 'Secret123' };

describe('setup code', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });

  /** A started server (as `npm start` runs it) and the lines its log printed. */
  async function started(kept: TestAppOptions = {}) {
    const lines: string[] = [];
    const t = await createTestApp({}, { ...kept, logTo: { write: (line: string) => void lines.push(line) } });
    apps.push(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    // The line comes from an onListen hook, which runs just after listen() resolves.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { t, lines };
  }

  const codeInLog = (lines: string[]) =>
    lines.map((l) => JSON.parse(l) as { setupCode?: string; msg: string }).find((l) => l.setupCode !== undefined);

  const setupStatus = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/setup', remoteAddress, headers }).then((r) => r.json().data);
  const postSetup = (t: TestApp, payload: object, remoteAddress = REMOTE) =>
    t.app.inject({ method: 'POST', url: '/api/setup', payload, remoteAddress });

  it('prints the code at start and asks a remote browser for it: none refused, a wrong one refused, the right one accepted', async () => {
    const { t, lines } = await started();
    const logged = codeInLog(lines);
    expect(logged?.setupCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(logged?.msg).toContain(logged?.setupCode);

    expect(await setupStatus(t, REMOTE)).toMatchObject({ status: false, setup_code_required: true });
    expect(await setupStatus(t, '127.0.0.1')).toMatchObject({ status: false, setup_code_required: false });

    let res = await postSetup(t, WIZARD);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: CODE_REQUIRED });
    res = await postSetup(t, { ...WIZARD, setup_code: 'ABCD-EFGH' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: CODE_WRONG });
    // Nobody became root meanwhile.
    expect(await t.deps.db.selectFrom('users').select('id').execute()).toEqual([]);

    // Typed as read off a terminal: lower case, no dash.
    res = await postSetup(t, { ...WIZARD, setup_code: logged!.setupCode!.replace('-', '').toLowerCase() });
    expect(res.json()).toEqual({ success: true, message: '系统初始化成功' });
    const root = await t.deps.db.selectFrom('users').select('role').where('username', '=', 'admin').executeTakeFirst();
    expect(root?.role).toBe(100);
  });

  it('the code is useless once setup is done, and a restarted server prints none', async () => {
    // Its own database, kept across the restart (on SQLite and on PostgreSQL alike).
    const kept = await createKeptDatabase();
    const { t, lines } = await started(kept.opts);
    const code = codeInLog(lines)!.setupCode!;
    await postSetup(t, { ...WIZARD, setup_code: code });
    const again = await postSetup(t, { ...WIZARD, username: 'intruder', setup_code: code });
    expect(again.json()).toEqual({ success: false, message: '系统已经初始化完成' });
    expect(await setupStatus(t, REMOTE)).toMatchObject({ status: true, setup_code_required: false });

    await apps.pop()!.close();
    const restarted = await started(kept.opts);
    expect(codeInLog(restarted.lines)).toBeUndefined();
    expect(await setupStatus(restarted.t, REMOTE)).toMatchObject({ status: true, setup_code_required: false });
    await apps.pop()!.close();
    await kept.remove();
  });

  it('treats a request through a proxy on the same machine as remote, whatever X-Forwarded-For claims', async () => {
    const { t } = await started();
    // nginx on the server forwards everyone from 127.0.0.1; the forwarding header gives it away.
    expect(await setupStatus(t, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).toMatchObject({
      setup_code_required: true,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      payload: WIZARD,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(res.json()).toEqual({ success: false, message: CODE_REQUIRED });
  });

  it('the console’s tRPC calls say whether the code is needed and refuse without it', async () => {
    const { t, lines } = await started();
    const status = await t.app.inject({ method: 'GET', url: '/trpc/auth.setupStatus', remoteAddress: REMOTE });
    expect(status.json().result.data).toMatchObject({ status: false, setup_code_required: true });

    const call = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/trpc/auth.setup', payload, remoteAddress: REMOTE });
    const refused = await call(WIZARD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.data).toMatchObject({ code: 'FORBIDDEN', messageCode: 'setup.code_required' });
    expect((await call({ ...WIZARD, setup_code: 'ZZZZ-ZZZZ' })).json().error.data.messageCode).toBe('setup.code_wrong');

    const ok = await call({ ...WIZARD, setup_code: codeInLog(lines)!.setupCode });
    expect(ok.json().result.data.user).toMatchObject({ username: 'admin', role: 100 });
  });
});
