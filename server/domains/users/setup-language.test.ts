import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { ROOT_PASSWORD } from '../../../test/users.ts';

/*
 * Defaults that ship words (the groups users may choose, with their descriptions) are in the install's
 * language (issue 31): the language the setup wizard ran in, else the browser's, else Chinese; root's
 * display name too (issue 45).
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function startedApp(): Promise<string> {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const setupBody = { username: 'root', password: ROOT_PASSWORD, confirmPassword: ROOT_PASSWORD };

/** Root's display name, as the console's top bar and the user list show it. */
async function rootDisplayName(): Promise<string | undefined> {
  const row = await t!.deps.db.selectFrom('users').select('display_name').where('role', '=', 100).executeTakeFirst();
  return row?.display_name;
}

async function usableGroups(base: string): Promise<Record<string, { desc: string }>> {
  const res = await fetch(`${base}/api/user/groups`);
  return ((await res.json()) as { data: Record<string, { desc: string }> }).data;
}

describe('install language', () => {
  it('an English browser running the REST setup gets English group descriptions', async () => {
    const base = await startedApp();
    const res = await fetch(`${base}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US,en;q=0.9' },
      body: JSON.stringify(setupBody),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    const groups = await usableGroups(base);
    // Only the default group: a fresh install presets no other (issue 39).
    expect(groups).toEqual({ default: { ratio: 1, desc: 'Default group' } });
    expect(JSON.stringify(groups)).not.toMatch(/[\u4e00-\u9fff]/);
    expect(await rootDisplayName()).toBe('Root User');
  });

  it('the wizard’s own language wins over the browser’s: a Chinese install stays Chinese', async () => {
    const base = await startedApp();
    const res = await fetch(`${base}/trpc/auth.setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
      body: JSON.stringify({ ...setupBody, language: 'zh' }),
    });
    expect(res.status).toBe(200);
    const groups = await usableGroups(base);
    expect(groups).toEqual({ default: { ratio: 1, desc: '默认分组' } });
    // Root is named in Chinese too (issue 45), not new-api's English "Root User".
    expect(await rootDisplayName()).toBe('超级管理员');
  });

  it('an English wizard in a Chinese browser makes an English install', async () => {
    const base = await startedApp();
    await fetch(`${base}/trpc/auth.setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      body: JSON.stringify({ ...setupBody, language: 'en' }),
    });
    expect((await usableGroups(base)).default.desc).toBe('Default group');
  });
});
