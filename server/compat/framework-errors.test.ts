import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverText } from '../../shared/server-messages.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { login, restHeaders, setupRoot } from '../../test/users.ts';

/*
 * Fastify's refusals of a request body (issue 31): the envelope, tRPC and the relay say what is wrong
 * in words, never with the framework's FST_ code, which stays available as the envelope's `detail`.
 */

const FRAMEWORK_CODE = /FST_|ERR_[A-Z]/;

describe('framework errors in words', () => {
  let t: TestApp;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // A small body limit, so the too-large case sends one megabyte, not the default's 32.
    t = await createTestApp({ bodyLimit: 2 ** 20 });
    await setupRoot(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    headers = restHeaders(await login(t, 'root', 'RootPass123!'));
  });
  afterAll(() => t.close());

  const post = (path: string, body: string, contentType?: string, extra: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, ...extra, ...(contentType ? { 'content-type': contentType } : {}) },
      body,
    });

  /** A POST with a body and no Content-Type header (fetch would add text/plain). */
  const postUntyped = (path: string, body: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request(`${base}${path}`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('a body that is not JSON gets the sentence, the code only as detail', async () => {
    // `curl -d` sends form encoding; a bare client sends no content type at all.
    for (const type of ['application/x-www-form-urlencoded', 'application/xml', undefined]) {
      const answer = type
        ? await (await post('/api/token/', 'name=x', type)).text()
        : await postUntyped('/api/token/', 'name=x');
      const body = JSON.parse(answer) as { success: boolean; message: string; detail?: string };
      expect(body.success).toBe(false);
      expect(body.message).toBe(serverText('common.body_not_json'));
      expect(body.message).not.toMatch(FRAMEWORK_CODE);
      expect(body.detail).toContain('FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
  });

  it('bad JSON and a body too large are worded too', async () => {
    const bad = (await (await post('/api/token/', '{"name":', 'application/json')).json()) as { message: string };
    expect(bad.message).toBe(serverText('common.invalid_json'));

    const big = await post('/api/token/', JSON.stringify({ name: 'x'.repeat(2 ** 20) }), 'application/json');
    expect(big.status).toBe(413);
    // The limit it passed, named (issue 39): the registry's wording, which the console shows in its language.
    const said = ((await big.json()) as { success: boolean; message: string }).message;
    expect(said).toBe(serverText('common.body_over_limit', { limit: '1 MB' }));
    expect(said).toBe('请求体超过了 1 MB 的上限');
  });

  it("a relay caller's 413 names the limit in the OpenAI error shape, the upload routes' own for multipart", async () => {
    const big = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(2 ** 20) }] }),
      'application/json',
      { authorization: 'Bearer sk-x', 'accept-language': 'en-US,en;q=0.9' },
    );
    expect(big.status).toBe(413);
    const body = (await big.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error.message).toMatch(/^Request body is larger than the limit of 1 MB \(request id: \w+\)$/);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'body_too_large' });

    // Audio and image uploads take up to 25 MB whatever BODY_LIMIT is; their 413 says so.
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array(26 * 2 ** 20)]), 'a.mp3');
    const upload = await fetch(`${base}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-x', 'accept-language': 'en-US,en;q=0.9' },
      body: form,
    });
    expect(upload.status).toBe(413);
    expect(((await upload.json()) as { error: { message: string } }).error.message).toMatch(
      /^Request body is larger than the limit of 25 MB/,
    );
  });

  it('tRPC says it with a code the console translates', async () => {
    const res = await post('/trpc/tokens.create', '<x/>', 'application/xml');
    expect(res.status).toBe(415);
    const body = (await res.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.message).toBe(serverText('common.body_not_json'));
    expect(body.error.data).toMatchObject({ messageCode: 'common.body_not_json', httpStatus: 415 });
  });

  it('the relay keeps its error shape, in Chinese unless the caller prefers English (issue 45)', async () => {
    const en = await post('/v1/chat/completions', '<x/>', 'application/xml', {
      authorization: 'Bearer sk-x',
      'accept-language': 'en-US,en;q=0.9',
    });
    const body = (await en.json()) as { error: { message: string; code: string } };
    expect(body.error.message).toMatch(/^The request body must be JSON \(Content-Type: application\/json\)/);
    expect(body.error.code).toBe('invalid_content_type');
    expect(body.error.message).not.toMatch(FRAMEWORK_CODE);

    const zh = await post('/v1/chat/completions', '<x/>', 'application/xml', { authorization: 'Bearer sk-x' });
    expect(((await zh.json()) as { error: { message: string } }).error.message).toContain(
      serverText('common.body_not_json'),
    );
  });
});
