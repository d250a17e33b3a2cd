import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
});
afterAll(async () => {
  await h.close();
});

describe('relay smoke', () => {
  it('answers a chat completion through the SDK', async () => {
    const user = await insertUser(h.deps);
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['gpt-4o'] });
    const token = await insertToken(h.deps, user.id);
    const r = await h.client(token.key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(r.choices[0].message.content).toContain('w0');
    await h.drain();
    const logs = await h.deps.db.selectFrom('logs').selectAll().execute();
    expect(logs).toHaveLength(1);

    // The answer the relay writes on the raw response carries the security headers and its request id.
    const { response } = await h
      .client(token.key)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'again' }] })
      .withResponse();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{20}$/);
  });
});
