import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vertexAccessToken } from '../../../server/relay/providers/vertex/credentials.ts';
import type { FakeUpstream } from '../server.ts';
import { fakeServiceAccount, startFakeVertex, VERTEX_UNAUTHENTICATED } from './index.ts';

/* The fake Vertex refuses what Vertex refuses: foreign tokens, a wrong region, Claude bodies in the wrong form. */

let fake: FakeUpstream;
let token: string;
const claude = '/v1/projects/switchyard-test/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514';

const post = async (path: string, body: object, auth = `Bearer ${token}`) => {
  const r = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const messages = [{ role: 'user', content: 'hi' }];

beforeAll(async () => {
  fake = await startFakeVertex();
  const sa = JSON.parse(fakeServiceAccount(fake.url)) as Parameters<typeof vertexAccessToken>[0];
  // A fresh key id: this test's own client, so the concurrent first calls below share one exchange.
  const fresh = { ...sa, private_key_id: 'fake-key-concurrent' };
  const got = await Promise.all(Array.from({ length: 5 }, () => vertexAccessToken(fresh)));
  expect(fake.requests.filter((r) => r.path === '/token')).toHaveLength(1);
  token = (got[0] as { token: string }).token;
});
afterAll(() => fake.close());

describe('fake Vertex AI', () => {
  it('answers a Claude rawPredict in Vertex form, refuses model in the body and a missing or wrong anthropic_version', async () => {
    const ok = await post(`${claude}:rawPredict`, { anthropic_version: 'vertex-2023-10-16', max_tokens: 10, messages });
    expect(ok).toMatchObject({ status: 200, body: { type: 'message', model: 'claude-sonnet-4@20250514' } });
    const withModel = await post(`${claude}:rawPredict`, {
      anthropic_version: 'vertex-2023-10-16',
      model: 'claude-sonnet-4',
      max_tokens: 10,
      messages,
    });
    expect(withModel).toMatchObject({
      status: 400,
      body: { error: { message: 'model: Extra inputs are not permitted' } },
    });
    expect((await post(`${claude}:rawPredict`, { max_tokens: 10, messages })).status).toBe(400);
    expect(
      (await post(`${claude}:rawPredict`, { anthropic_version: '2023-06-01', max_tokens: 10, messages })).status,
    ).toBe(400);
    // The strict Anthropic validator behind it: max_tokens is required.
    expect((await post(`${claude}:rawPredict`, { anthropic_version: 'vertex-2023-10-16', messages })).status).toBe(400);
  });

  it('refuses a token it did not issue, an unknown region and a model the publisher does not have', async () => {
    const gemini = '/v1/projects/switchyard-test/locations/us-central1/publishers/google/models/gemini-2.5-flash';
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    expect((await post(`${gemini}:generateContent`, { contents })).status).toBe(200);
    expect(await post(`${gemini}:generateContent`, { contents }, 'Bearer ya29.forged')).toMatchObject({
      status: 401,
      body: { error: { status: 'UNAUTHENTICATED', message: VERTEX_UNAUTHENTICATED } },
    });
    expect((await post(`${gemini.replace('us-central1', 'mars-north1')}:generateContent`, { contents })).status).toBe(
      400,
    );
    expect(
      (await post(`${gemini.replace('switchyard-test', 'other-project')}:generateContent`, { contents })).status,
    ).toBe(403);
    expect((await post(`${gemini.replace('gemini-2.5-flash', 'gpt-4o')}:generateContent`, { contents })).status).toBe(
      404,
    );
    // The strict Gemini validator behind it: contents are required.
    expect((await post(`${gemini}:generateContent`, {})).status).toBe(400);
  });
});
