import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { migrations } from '../../../migrations/index.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot } from '../../../test/users.ts';
import { createMigrator, migrateToLatest } from '../../db/index.ts';

/*
 * Issue 39, "a plain user is offered a preset vip group the operator never created": a fresh install
 * offers only "default" wherever groups are offered (the token form's choice, the user's groups, the
 * pricing page, the admin's group list); an install already in use keeps the vip/svip presets it ran
 * with (migration 2026-11-28T0000-group-presets), and what an operator stored is never touched.
 */

const MINE = '2026-11-28T0000-group-presets';
const names = Object.keys(migrations).sort();
const before = names[names.indexOf(MINE) - 1];

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const get = async (app: TestApp, url: string, headers: Record<string, string> = {}) =>
  (await app.app.inject({ method: 'GET', url, headers })).json();

describe('groups offered on a fresh install', () => {
  it('are only the default group until the operator creates another', async () => {
    const app = (t = await createTestApp());
    await setupRoot(app);
    const { headers } = await loginAs(app);
    const onlyDefault = { default: { ratio: 1, desc: '默认分组' } };
    expect((await get(app, '/api/user/self/groups', headers)).data).toEqual(onlyDefault);
    expect((await get(app, '/api/user/groups')).data).toEqual(onlyDefault);
    const pricing = await get(app, '/api/pricing', headers);
    expect(pricing.usable_group).toEqual({ default: '默认分组' });
    expect(pricing.group_ratio).toEqual({ default: 1 });
    const admin = await loginAs(app, Role.Admin);
    expect((await get(app, '/api/group/', admin.headers)).data).toEqual(['default']);

    // The token form cannot pick a group nobody created.
    const token = (group: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/token/',
        headers,
        payload: { name: `in-${group}`, remain_quota: 1000, expired_time: -1, group },
      });
    expectRefused(await token('vip'));
    expect((await token('default')).json()).toMatchObject({ success: true });

    // Once the operator creates vip and lets users pick it, it is offered.
    await app.deps.services.options.update('GroupRatio', JSON.stringify({ default: 1, vip: 1.5 }));
    await app.deps.services.options.update('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'VIP' }));
    expect((await get(app, '/api/user/self/groups', headers)).data).toEqual({
      ...onlyDefault,
      vip: { ratio: 1.5, desc: 'VIP' },
    });
    expect((await token('vip')).json()).toMatchObject({ success: true });
  });
});

describe('an install already in use when the presets went', () => {
  /** The database as the previous version left it: set up, and `stored` options saved by the operator. */
  async function upgradedInstall(stored: Record<string, string>): Promise<TestApp> {
    const app = (t = await createTestApp());
    const migrator = await createMigrator(app.deps.db);
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    const old = app.deps.db as unknown as Kysely<{
      setups: { version: string; initialized_at: number };
      options: { key: string; value: string };
    }>;
    await old.insertInto('setups').values({ version: 'old', initialized_at: 1_700_000_000 }).execute();
    for (const [key, value] of Object.entries(stored)) await old.insertInto('options').values({ key, value }).execute();
    await migrateToLatest(app.deps.db);
    await app.deps.services.options.load();
    return app;
  }

  it('keeps offering the vip group it ran with', async () => {
    const app = await upgradedInstall({});
    const { headers } = await loginAs(app);
    expect((await get(app, '/api/user/self/groups', headers)).data).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 1, desc: 'vip分组' },
    });
    const admin = await loginAs(app, Role.Admin);
    expect((await get(app, '/api/group/', admin.headers)).data).toEqual(['default', 'vip', 'svip']);
  });

  it("keeps the operator's own groups as they were", async () => {
    const app = await upgradedInstall({ GroupRatio: JSON.stringify({ default: 1, gold: 3 }) });
    expect(app.deps.services.options.get('GroupRatio')).toEqual({ default: 1, gold: 3 });
    // The options it never saved keep the presets it ran with.
    expect(app.deps.services.options.get('UserUsableGroups')).toEqual({ default: '默认分组', vip: 'vip分组' });
  });
});
