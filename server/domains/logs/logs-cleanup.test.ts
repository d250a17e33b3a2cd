import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setupRoot, trpcCaller } from '../../../test/users.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
});
afterAll(() => t.close());

describe('logsCleanup.deleteBefore (settings › other › logs)', () => {
  it('deletes only logs older than the chosen time, for admins', async () => {
    const admin = await createUser(t, { role: Role.Admin });
    await t.deps.db
      .insertInto('logs')
      .values([
        { created_at: 1_000, content: 'old' },
        { created_at: 2_000, content: 'new' },
      ])
      .execute();
    const caller = trpcCaller(t, { id: admin.id, role: Role.Admin });
    await expect(caller.logsCleanup.deleteBefore({ targetTimestamp: 1_500 })).resolves.toEqual({ deleted: 1 });
    const left = await t.deps.db.selectFrom('logs').select('content').execute();
    expect(left.map((l) => l.content)).toEqual(['new']);
    await expect(caller.logsCleanup.deleteBefore({ targetTimestamp: 0 })).rejects.toThrow('请选择日志时间');
    const user = await createUser(t);
    await expect(
      trpcCaller(t, { id: user.id, role: Role.Common }).logsCleanup.deleteBefore({ targetTimestamp: 5 }),
    ).rejects.toThrow();
  });
});
