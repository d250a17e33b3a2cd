import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../server.ts';
import { FAKE_CF_ACCOUNT, FAKE_CF_TOKEN, startFakeCloudflare } from './index.ts';

/* The Cloudflare fake refuses what Workers AI refuses, in Cloudflare's envelope with its codes. */

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeCloudflare();
});
afterAll(() => fake.close());

async function post(path: string, body: string | Buffer, type = 'application/json', token = FAKE_CF_TOKEN) {
  const res = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as { success?: boolean; errors?: { code: number }[] } };
}
const account = (id = FAKE_CF_ACCOUNT) => `/client/v4/accounts/${id}/ai`;
const chatBody = (model: string, messages: unknown = [{ role: 'user', content: 'hi' }]) =>
  JSON.stringify({ model, messages });

describe('the strict Cloudflare fake', () => {
  it('checks the token, then the account in the path', async () => {
    const bad = await post(
      `${account()}/v1/chat/completions`,
      chatBody('@cf/meta/llama-3.1-8b-instruct'),
      undefined,
      'nope',
    );
    expect(bad).toMatchObject({ status: 401, body: { success: false, errors: [{ code: 10000 }] } });
    const other = await post(
      `${account('f'.repeat(32))}/v1/chat/completions`,
      chatBody('@cf/meta/llama-3.1-8b-instruct'),
    );
    expect(other).toMatchObject({ status: 403, body: { errors: [{ code: 7003 }] } });
  });

  it('refuses an unknown model and malformed messages', async () => {
    expect((await post(`${account()}/v1/chat/completions`, chatBody('gpt-4o'))).body.errors?.[0].code).toBe(5007);
    const noContent = await post(
      `${account()}/v1/chat/completions`,
      chatBody('@cf/meta/llama-3.1-8b-instruct', [{ role: 'wizard' }]),
    );
    expect(noContent).toMatchObject({ status: 400, body: { errors: [{ code: 5006 }] } });
  });

  it('whisper takes raw audio bytes, not JSON or a multipart form', async () => {
    const ok = await post(`${account()}/run/@cf/openai/whisper`, Buffer.from('audio'), 'audio/wav');
    expect(ok).toMatchObject({ status: 200, body: { success: true } });
    const json = await post(`${account()}/run/@cf/openai/whisper`, JSON.stringify({ audio: 'x' }));
    expect(json).toMatchObject({ status: 400, body: { errors: [{ code: 5006 }] } });
    const form = await post(
      `${account()}/run/@cf/openai/whisper`,
      Buffer.from('--b--'),
      'multipart/form-data; boundary=b',
    );
    expect(form.status).toBe(400);
  });
});
