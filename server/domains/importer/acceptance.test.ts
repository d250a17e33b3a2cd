import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEWAPI_FACTS,
  type FixtureDialect,
  needsMariaDb,
  needsPostgresSource,
  newApiDatabase,
  type NewApiDatabase,
} from '../../../test/newapi-db/index.ts';
import { type RelayHarness, startRelayHarness } from '../../../test/relay-fixtures.ts';
import { randomIp } from '../../../test/users.ts';
import { relayRuntimeOf } from '../../relay/runtime.ts';
import { rebuildAllAbilities } from '../channels/service/abilities.ts';
import { type ImportReport, runImport } from './import.service.ts';
import { openImportSource } from './sources/source.repo.ts';

/*
 * Issue 42's acceptance: a new-api database of today's schema (2026), written the way new-api writes it, is
 * imported (into SQLite, or PostgreSQL when the suite runs there); then, through the real HTTP API and the relay,
 * nothing the operator's users had is lost: alice signs in with her old password, is asked for her old TOTP code,
 * her old backup codes work once each, her paid plan keeps what was left of it and pays her next call, her token
 * relays, the channel pool keeps its disabled key out of rotation, and the balance check holds. The source is the
 * SQLite file here, and the same database on MariaDB and PostgreSQL when those servers are given.
 */

const { alice, subscription: plan, multiKeyChannel } = NEWAPI_FACTS;
const SOURCES: { dialect: FixtureDialect; ok: boolean; name: (t: string) => string }[] = [
  { dialect: 'sqlite', ok: true, name: (t) => t },
  { dialect: 'mariadb', ...needsMariaDb },
  { dialect: 'postgres', ...needsPostgresSource },
];

for (const src of SOURCES)
  describe.skipIf(!src.ok)(src.name(`moving from new-api 2026 on ${src.dialect}`), () => {
    let fixture: NewApiDatabase;
    let h: RelayHarness;
    let report: ImportReport;

    beforeAll(async () => {
      fixture = await newApiDatabase({ kind: 'new-api-2026', dialect: src.dialect });
      h = await startRelayHarness();
      const source = await openImportSource(fixture.spec);
      try {
        report = await runImport(h.deps.db, { source, sessionSecret: h.deps.config.sessionSecret });
      } finally {
        await source.close();
      }
      // The upstreams of the old gateway are the fake here; the pool channel alone serves gpt-4o-mini, for alice's
      // group too, so every call shows which of its keys it used.
      await h.deps.db.updateTable('channels').set({ base_url: h.fake.url }).execute();
      await h.deps.db.updateTable('channels').set({ status: 2 }).where('id', '!=', multiKeyChannel.id).execute();
      await h.deps.db
        .updateTable('channels')
        .set({ group: 'default,vip' })
        .where('id', '=', multiKeyChannel.id)
        .execute();
      await rebuildAllAbilities(h.deps.db);
      // What the import command tells the operator to do: restart, so the gateway reads the imported rows.
      await h.deps.services.options.load();
      await relayRuntimeOf(h.deps)!.routing.reload();
      h.deps.bus.publish('subscriptions', String(alice.id));
    });
    afterAll(async () => {
      await h?.close();
      await fixture?.close();
    });

    const passwordStep = async () => {
      const res = await h.t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: alice.username, password: NEWAPI_FACTS.password },
        remoteAddress: randomIp(),
      });
      expect(res.json()).toMatchObject({ success: true, data: { require_2fa: true } });
      return String(res.headers['set-cookie']).split(';')[0];
    };
    const secondStep = (cookie: string, code: string) =>
      h.t.app.inject({ method: 'POST', url: '/api/user/login/2fa', headers: { cookie }, payload: { code } });

    it('reports every table, and the balance check holds for wallets and plans', () => {
      expect(report.failure).toBeUndefined();
      expect(report.shape).toBe('new-api-2026');
      expect(report.balance.ok).toBe(true);
      expect(report.balance.after).toEqual(report.balance.before);
      // alice's plan has 3,800,000 left; carol's expired one is spent.
      expect(report.balance.before.subscriptions).toBe(plan.total - plan.used);
      expect(report.tables.user_subscriptions).toMatchObject({ read: 2, imported: 2, skipped: [] });
      expect(report.tables.subscription_plans).toMatchObject({ read: 2, imported: 2 });
      expect(report.tables.subscription_orders).toMatchObject({ read: 2, imported: 2 });
      // carol set two-factor up but never turned it on: she signs in with her password, as in new-api.
      expect(report.tables.two_fa).toMatchObject({ read: 2, imported: 1 });
      expect(report.tables.two_fa.skipped[0].reason).toMatch(/never turned on/);
      expect(report.tables.two_fa_backup_codes).toMatchObject({ read: 3, imported: 3 });
      expect(report.tables.passkey_credentials).toMatchObject({ read: 1, imported: 1 });
      expect(report.tables.vendors).toMatchObject({
        read: 2,
        imported: 1,
        skipped: [{ id: 2, reason: 'deleted in new-api' }],
      });
      expect(report.tables.models).toMatchObject({ read: 2, imported: 2 });
      expect(report.tables.prefill_groups).toMatchObject({ read: 1, imported: 1 });
      expect(report.tables.check_ins).toMatchObject({ read: 2, imported: 2 });
      expect(report.tables.user_oauth_bindings).toMatchObject({ read: 1, imported: 0 });
      expect(report.notes.join('\n')).toMatch(/passkey_credentials: made for old-gateway\.example\.com/);
    });

    it('signs alice in with her old password and asks for the code of her old authenticator app', async () => {
      const cookie = await passwordStep();
      expect((await secondStep(cookie, '000000')).json()).toMatchObject({ success: false });
      const ok = await secondStep(cookie, await generate({ secret: NEWAPI_FACTS.totpSecret }));
      expect(ok.json()).toMatchObject({ success: true, data: { id: alice.id, username: alice.username } });
      expect(String(ok.headers['set-cookie'])).toMatch(/session=/);
    });

    it('takes each of her unused new-api backup codes once, and not the one she had used', async () => {
      const [first] = NEWAPI_FACTS.backupCodes;
      const ok = await secondStep(await passwordStep(), first.toLowerCase().replace('-', ''));
      expect(ok.json()).toMatchObject({ success: true, data: { id: alice.id } });
      expect((await secondStep(await passwordStep(), first)).json()).toMatchObject({ success: false });
      expect((await secondStep(await passwordStep(), NEWAPI_FACTS.usedBackupCode)).json()).toMatchObject({
        success: false,
      });
    });

    it("relays her old token, paid from what was left of her plan, through the pool's live keys only", async () => {
      const client = h.client(`sk-${NEWAPI_FACTS.tokenKey}`);
      const before = await h.deps.db
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('id', '=', plan.id)
        .executeTakeFirstOrThrow();
      expect(Number(before.amount_total) - Number(before.amount_used)).toBe(plan.total - plan.used);
      const wallet = await h.deps.db
        .selectFrom('users')
        .select('quota')
        .where('id', '=', alice.id)
        .executeTakeFirstOrThrow();
      expect(Number(wallet.quota)).toBe(alice.quota);

      h.fake.requests.length = 0;
      for (let i = 0; i < 4; i++) {
        const answer = await client.chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: `hello ${i}` }],
        });
        expect(answer.choices[0].message.content).toBeTruthy();
        // Each call settled before the next reserves: on PostgreSQL a settle (token, then plan) racing the next
        // reserve (plan, then token) can deadlock today, a billing matter outside the import (reported).
        await h.drain();
      }
      await h.drain();

      const keys = new Set(h.fake.requests.map((r) => String(r.headers.authorization).replace(/^Bearer /, '')));
      const [k0, k1, k2] = multiKeyChannel.keys;
      expect(keys.has(k1)).toBe(false);
      expect([...keys].sort()).toEqual([k0, k2]);

      const after = await h.deps.db
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('id', '=', plan.id)
        .executeTakeFirstOrThrow();
      expect(Number(after.amount_used)).toBeGreaterThan(plan.used);
      const walletAfter = await h.deps.db
        .selectFrom('users')
        .select('quota')
        .where('id', '=', alice.id)
        .executeTakeFirstOrThrow();
      expect(Number(walletAfter.quota)).toBe(alice.quota);
    });

    it('changes nothing when run a second time', async () => {
      const count = async () =>
        Object.fromEntries(
          await Promise.all(
            (['user_subscriptions', 'two_fa_backup_codes', 'passkey_credentials', 'check_ins', 'models'] as const).map(
              async (t) => [t, (await h.deps.db.selectFrom(t).select('id').execute()).length] as const,
            ),
          ),
        );
      const was = await count();
      const source = await openImportSource(fixture.spec);
      try {
        const again = await runImport(h.deps.db, { source, dryRun: true, sessionSecret: h.deps.config.sessionSecret });
        expect(again.balance.ok).toBe(true);
        expect(again.tables.user_subscriptions).toMatchObject({ read: 2, imported: 2 });
      } finally {
        await source.close();
      }
      expect(await count()).toEqual(was);
    });
  });
