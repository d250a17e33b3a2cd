import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { insertToken, insertUser } from '../../test/relay-fixtures.ts';
import { loginAs, setupRoot } from '../../test/users.ts';
import { DEMO_CHANNEL_NAME } from './demo-channel.ts';

/* Issue 22 item 9: trying the gateway without a provider key, never on unless DEMO_CHANNEL=true. */
async function listening(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const addDemo = (base: string, cookie: string, userId: number) =>
  fetch(`${base}/trpc/channels.addDemo`, {
    method: 'POST',
    headers: { cookie, 'new-api-user': String(userId), 'content-type': 'application/json' },
    body: '{}',
  });

describe('demo channel, off by default', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    base = await listening(t);
  });
  afterAll(() => t.close());

  it('serves no demo upstream, refuses to add the channel and says nothing in the status', async () => {
    expect((await fetch(`${base}/demo-upstream/v1/models`)).status).toBe(404);
    const { session } = await loginAs(t, Role.Admin);
    const res = await addDemo(base, session.cookie, session.userId);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { data: { messageCode: string } } }).error.data.messageCode).toBe(
      'demo.disabled',
    );
    const status = (await (await fetch(`${base}/api/status`)).json()) as { data: { demo_channel: boolean } };
    expect(status.data.demo_channel).toBe(false);
  });
});

describe('demo channel with DEMO_CHANNEL=true', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ demoChannel: true });
    await setupRoot(t);
    base = await listening(t);
  });
  afterAll(() => t.close());

  it('an admin adds it and a token gets answers through the relay, billed and logged', async () => {
    const { session } = await loginAs(t, Role.Admin);
    const res = await addDemo(base, session.cookie, session.userId);
    expect(res.status).toBe(200);
    const channel = await t.deps.db.selectFrom('channels').selectAll().executeTakeFirstOrThrow();
    expect(channel).toMatchObject({ name: DEMO_CHANNEL_NAME, models: 'gpt-4o-mini', priority: -999 });

    const user = await insertUser(t.deps, { quota: 1_000_000 });
    const token = await insertToken(t.deps, user.id);
    const client = new OpenAI({ apiKey: token.key, baseURL: `${base}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(answer.choices[0].message.content).toContain("This is Switchyard's demo channel");
    expect(answer.choices[0].message.content).toContain('Hello there');

    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: '你好' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toContain('这是 Switchyard 的演示渠道');

    await expect
      .poll(
        async () =>
          (await t.deps.db.selectFrom('logs').select('quota').where('user_id', '=', user.id).execute()).length,
      )
      .toBe(2);
    const after = await t.deps.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.quota).toBeLessThan(1_000_000);
  });
});
