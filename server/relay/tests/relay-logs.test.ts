import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogWriter } from '../../domains/logs/log-writer.service.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'log-model': 1 }) });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['log-model'] });
});
afterAll(async () => {
  await h.close();
});

const logCount = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('logs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('consume logs', () => {
  it('are queued and written in batches, one transaction per batch', async () => {
    const writer = createLogWriter(h.deps, h.deps.services.options.get);
    const before = await logCount();
    for (let i = 0; i < 450; i++)
      writer.write({ user_id: 1, created_at: 1_700_000_000 + i, type: 2, model_name: 'm', quota: 1, prompt_tokens: 1 });
    // Nothing was awaited: the rows only exist once the queue is flushed.
    await writer.flush();
    expect((await logCount()) - before).toBe(450);
    const bucket = await h.deps.db
      .selectFrom('quota_data')
      .selectAll()
      .where('user_id', '=', 1)
      .where('model_name', '=', 'm')
      .execute();
    expect(bucket.reduce((s, b) => s + Number(b.count), 0)).toBe(450);
    await writer.close();
  });

  it('are not lost on a clean shutdown', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const before = await logCount();
    await h
      .client(token.key)
      .chat.completions.create({ model: 'log-model', messages: [{ role: 'user', content: 'bye' }] });
    // No drain: closing the app must settle and flush by itself.
    await h.t.app.close();
    expect((await logCount()) - before).toBe(1);
    const u = await h.deps.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(u.used_quota)).toBeGreaterThan(0);
  });
});
