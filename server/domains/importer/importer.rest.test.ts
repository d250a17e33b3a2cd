import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createNewApiDatabase } from '../../../test/new-api-database.ts';
import { loginAs } from '../../../test/users.ts';
import { createImportJobsService, maskDsn } from './import-jobs.service.ts';
import { importRunner } from './import-runner.deps.ts';

/*
 * The console's import (issue 42) over real HTTP: root uploads a new-api SQLite file, runs a dry run that
 * writes nothing, then the import; a second import while one runs is refused; admins below root are refused.
 */
describe('/api/import/*', () => {
  let t: TestApp;
  let root: Record<string, string>;
  let sourceFile: string;

  const status = async () => (await t.app.inject({ url: '/api/import/status', headers: root })).json().data;
  const settle = async () => {
    for (let i = 0; i < 200; i++) {
      const s = await status();
      if (s.job?.state !== 'running') return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('import did not finish');
  };
  const start = (body: object) =>
    t.app.inject({ method: 'POST', url: '/api/import/start', headers: root, payload: body }).then((r) => r.json());
  const upload = (bytes: Buffer, name = 'one-api.db') =>
    t.app
      .inject({
        method: 'POST',
        url: `/api/import/upload?name=${name}`,
        headers: { ...root, 'content-type': 'application/octet-stream' },
        payload: bytes,
      })
      .then((r) => r.json());

  beforeAll(async () => {
    t = await createTestApp();
    root = (await loginAs(t, Role.Root)).headers;
    sourceFile = path.join(t.dataDir, 'source-one-api.db');
    createNewApiDatabase(sourceFile, 'new-api');
  });
  afterAll(() => t.close());

  it('refuses an admin below root, and a visitor', async () => {
    const admin = (await loginAs(t, Role.Admin)).headers;
    const asAdmin = await t.app.inject({ url: '/api/import/status', headers: admin });
    expect(asAdmin.json()).toMatchObject({ success: false });
    const start = await t.app.inject({ method: 'POST', url: '/api/import/start', headers: admin, payload: {} });
    expect(start.json()).toMatchObject({ success: false });
    const visitor = await t.app.inject({ url: '/api/import/status' });
    expect(visitor.statusCode).toBe(401);
  });

  it('refuses a file that is not a SQLite database, and a start with no source', async () => {
    expect(await upload(Buffer.from('hello, not a database'))).toEqual({
      success: false,
      message: '上传的文件不是 SQLite 数据库',
    });
    expect((await status()).upload).toBeNull();
    expect(await start({ dryRun: true })).toMatchObject({ success: false, message: expect.stringContaining('SQLite') });
  });

  it('dry-runs an uploaded file writing nothing, then imports it and removes the file', async () => {
    const up = await upload(readFileSync(sourceFile));
    expect(up).toMatchObject({ success: true, data: { name: 'one-api.db' } });
    expect((await status()).upload).toMatchObject({ name: 'one-api.db', size: readFileSync(sourceFile).length });

    expect(await start({ dryRun: true })).toMatchObject({ success: true });
    const dry = await settle();
    expect(dry.job).toMatchObject({ state: 'done', dryRun: true, source: 'one-api.db', error: null });
    expect(dry.job.report.tables.users).toMatchObject({ read: 2, imported: 2 });
    expect(dry.job.report.balance.ok).toBe(true);
    const alice = () =>
      t.deps.db.selectFrom('users').select('quota').where('username', '=', 'alice').executeTakeFirst();
    expect(await alice()).toBeUndefined();
    // The dry run keeps the upload for the import that follows.
    expect(dry.upload).toMatchObject({ name: 'one-api.db' });

    expect(await start({ dryRun: false })).toMatchObject({ success: true });
    const done = await settle();
    expect(done.job).toMatchObject({ state: 'done', dryRun: false });
    expect(done.job.report.tables.users).toMatchObject({ read: 2, imported: 2 });
    expect(await alice()).toEqual({ quota: 2_500_000 });
    expect(done.upload).toBeNull();
  });

  it('runs one import at a time: a second start or upload while one runs is refused', async () => {
    // The real runner, held at its start until the test lets it go, so "while it runs" is certain.
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const jobs = createImportJobsService(t.deps, async (db, spec) => {
      await gate;
      return importRunner(db, spec);
    });
    jobs.start({ dsn: sourceFile, dryRun: true, logs: false });
    expect(() => jobs.start({ dsn: sourceFile, dryRun: false, logs: false })).toThrow(
      expect.objectContaining({ messageCode: 'importer.busy' }),
    );
    await expect(jobs.upload('x.db', Readable.from([Buffer.from('x')]))).rejects.toMatchObject({
      messageCode: 'importer.busy',
    });
    release();
    await vi.waitFor(() => expect(jobs.status().job?.state).toBe('done'));
    expect(jobs.status().job?.report?.tables.users).toMatchObject({ read: 2 });
  });

  it('reads a path on the server, and reports an unreadable source as the failure', async () => {
    expect(await start({ dsn: sourceFile, dryRun: true })).toMatchObject({ success: true });
    expect((await settle()).job).toMatchObject({ state: 'done', source: sourceFile });
    expect(await start({ dsn: path.join(t.dataDir, 'nowhere.db'), dryRun: true })).toMatchObject({ success: true });
    const failed = await settle();
    expect(failed.job.state).toBe('failed');
    expect(failed.job.error).toBeTruthy();
  });

  it('never shows a DSN password back', () => {
    expect(maskDsn('root:s3cret@tcp(db:3306)/new-api?parseTime=true')).toBe(
      'root:***@tcp(db:3306)/new-api?parseTime=true',
    );
    expect(maskDsn('postgres://u:p%40ss@h:5432/x')).toBe('postgres://u:***@h:5432/x');
    expect(maskDsn('/data/one-api.db')).toBe('/data/one-api.db');
  });
});
