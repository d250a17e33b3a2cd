import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { newApiDatabase, type NewApiDatabase } from '../../../test/newapi-db/index.ts';
import { runImport, type RunImportOptions } from './import.service.ts';
import { openImportSource } from './sources/source.repo.ts';

/*
 * The tables issue 42 added beyond users, tokens and channels, each as an operator would notice it after the move:
 * usage logs only when asked (`--logs`), in the log page's totals, never twice; passkeys converted to the form the
 * WebAuthn sign-in reads, and a warning when the site's address changes; a dry run that counts everything and
 * writes nothing; a TOTP secret never stored readable; an older schema imported with what it lacks said.
 */

const LOGS = 3_000;

async function importFrom(t: TestApp, db: NewApiDatabase, opts: Omit<RunImportOptions, 'source'> = {}) {
  const source = await openImportSource(db.spec);
  try {
    return await runImport(t.deps.db, { sessionSecret: t.deps.config.sessionSecret, ...opts, source });
  } finally {
    await source.close();
  }
}

const count = async (t: TestApp, table: 'logs' | 'user_subscriptions' | 'two_fa' | 'passkey_credentials' | 'models') =>
  Number(
    (
      await t.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('importing the tables beyond users, tokens and channels', () => {
  let t: TestApp;
  let db2026: NewApiDatabase;
  beforeAll(async () => {
    t = await createTestApp();
    db2026 = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite', rows: { logs: LOGS } });
  });
  afterAll(async () => {
    await t.close();
    await db2026.close();
  });

  it('dry-runs with exact counts and writes nothing', async () => {
    const report = await importFrom(t, db2026, { dryRun: true, logs: true });
    expect(report.tables.user_subscriptions).toMatchObject({ read: 2, imported: 2 });
    expect(report.tables.logs).toMatchObject({ read: LOGS, imported: LOGS });
    expect(report.balance.ok).toBe(true);
    for (const table of ['logs', 'user_subscriptions', 'two_fa', 'passkey_credentials', 'models'] as const)
      expect(await count(t, table), table).toBe(0);
  });

  it('never stores a TOTP secret it cannot seal: without the server key the setup is skipped, saying why', async () => {
    const report = await importFrom(t, db2026, { dryRun: true, sessionSecret: undefined });
    expect(report.tables.two_fa.imported).toBe(0);
    expect(report.tables.two_fa.skipped).toContainEqual({
      id: 1,
      reason: 'no SESSION_SECRET given: the TOTP secret cannot be sealed',
    });
  });

  it('leaves the logs behind unless asked, then copies them into the log totals, once', async () => {
    const without = await importFrom(t, db2026, { siteAddress: 'https://new.example.org' });
    expect(without.tables.logs).toBeUndefined();
    expect(without.notes).toContain('logs: not copied (add --logs to copy them)');
    expect(await count(t, 'logs')).toBe(0);

    const started = performance.now();
    const withLogs = await importFrom(t, db2026, { logs: true });
    const seconds = (performance.now() - started) / 1000;
    expect(withLogs.tables.logs).toMatchObject({ read: LOGS, imported: LOGS, skipped: [] });
    // The log page's totals (hourly rollup) see the imported history as the source had it.
    const source = Array.from({ length: LOGS }, (_, i) => i + 1);
    const consumed = source.filter((i) => i % 50 !== 0).reduce((sum, i) => sum + 150 + (i % 7), 0);
    const rolled = await t.deps.db
      .selectFrom('log_hourly')
      .select((eb) => eb.fn.sum<number>('quota').as('q'))
      .where('level', '=', 0)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    expect(Number(rolled.q)).toBe(consumed);
    console.info(`logs: ${LOGS} rows in ${seconds.toFixed(2)} s (${Math.round(LOGS / seconds)} rows/s, with the rest)`);

    const again = await importFrom(t, db2026, { logs: true });
    expect(again.tables.logs).toMatchObject({ read: LOGS, imported: 0 });
    expect(again.tables.logs.skipped[0]).toEqual({ id: 1, reason: 'already imported' });
    expect(await count(t, 'logs')).toBe(LOGS);
  });

  it("converts passkeys to the WebAuthn library's form and warns when the site's address changed", async () => {
    const report = await importFrom(t, db2026, { siteAddress: 'https://new.example.org' });
    expect(report.notes.join('\n')).toContain(
      "passkey_credentials: made for old-gateway.example.com, but Switchyard's address is new.example.org",
    );
    const row = await t.deps.db.selectFrom('passkey_credentials').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: 7,
      credential_id: Buffer.from('q83vEjRWeJA=', 'base64').toString('base64url'),
      public_key: Buffer.from('pQECAyYgASFYIBQx', 'base64').toString('base64url'),
      aaguid: '00000000-0000-0000-0000-000000000000',
      sign_count: 4,
      backup_eligible: 1,
      transports: '["internal","hybrid"]',
    });
  });

  it('imports what an April 2025 database has and says which newer tables it lacks', async () => {
    const t2 = await createTestApp();
    const db2025 = await newApiDatabase({ kind: 'new-api-2025', dialect: 'sqlite' });
    try {
      const report = await importFrom(t2, db2025);
      expect(report.shape).toBe('new-api-2025');
      expect(report.failure).toBeUndefined();
      expect(report.balance.ok).toBe(true);
      expect(report.notes).toContain('user_subscriptions: the source has no user_subscriptions table, nothing to copy');
      expect(report.notes).toContain('two_fa: the source has no two_fas table, nothing to copy');
      expect(report.tables.tasks?.imported ?? 0).toBeGreaterThan(0);
    } finally {
      await t2.close();
      await db2025.close();
    }
  });
});
