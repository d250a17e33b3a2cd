import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tencentCall } from '../../../server/relay/providers/tencent/adapter.ts';
import { signTencentRequest } from '../../../server/relay/providers/tencent/sign.ts';
import type { FakeUpstream } from '../server.ts';
import { FAKE_TENCENT_SECRET_ID, FAKE_TENCENT_SECRET_KEY, startFakeTencent } from './index.ts';

/* The Tencent fake refuses what Tencent refuses, with Tencent's codes in a 200 answer. */

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeTencent();
});
afterAll(() => fake.close());

const creds = { appId: '1', secretId: FAKE_TENCENT_SECRET_ID, secretKey: FAKE_TENCENT_SECRET_KEY };
const chat = (body: object) =>
  signTencentRequest(tencentCall(fake.url, 'ChatCompletions', 'ap-guangzhou', body), creds);
const user = (Content: string) => ({ Role: 'user', Content });

async function send(req: { url: string; headers: Record<string, string>; body?: string | Buffer }) {
  const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: String(req.body) });
  expect(res.status).toBe(200);
  return (await res.json()) as { Response: { Error?: { Code: string; Message: string } } };
}
const codeOf = async (req: Parameters<typeof send>[0]) => (await send(req)).Response.Error?.Code;

describe('the strict Tencent fake', () => {
  it('answers a correctly signed call', async () => {
    expect(await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('hi')] }))).toBeUndefined();
  });

  it('recomputes the signature: a body changed after signing, another SecretKey or SecretId fail', async () => {
    const req = chat({ Model: 'hunyuan-lite', Messages: [user('hi')] });
    expect(await codeOf({ ...req, body: String(req.body).replace('hi', 'ho') })).toBe('AuthFailure.SignatureFailure');
    const otherKey = signTencentRequest(
      tencentCall(fake.url, 'ChatCompletions', 'ap-guangzhou', { Model: 'hunyuan-lite', Messages: [user('hi')] }),
      {
        ...creds,
        secretKey: 'wrong',
      },
    );
    expect(await codeOf(otherKey)).toBe('AuthFailure.SignatureFailure');
    const otherId = signTencentRequest(
      tencentCall(fake.url, 'ChatCompletions', 'ap-guangzhou', { Model: 'hunyuan-lite', Messages: [user('hi')] }),
      {
        ...creds,
        secretId: 'AKIDunknown',
      },
    );
    expect(await codeOf(otherId)).toBe('AuthFailure.SecretIdNotFound');
    // The action is not signed but still required.
    const { 'x-tc-action': _, ...noAction } = req.headers;
    expect(await codeOf({ ...req, headers: noAction })).toBe('MissingParameter');
    const { authorization: __, ...unsigned } = req.headers;
    expect(await codeOf({ ...req, headers: unsigned })).toBe('AuthFailure.InvalidAuthorization');
  });

  it('refuses unknown parameters, a missing model, a bad role order and tools in the OpenAI shape', async () => {
    expect(await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('hi')], max_tokens: 5 }))).toBe(
      'UnknownParameter',
    );
    expect(await codeOf(chat({ Messages: [user('hi')] }))).toBe('MissingParameter');
    expect(await codeOf(chat({ Model: 'gpt-4o', Messages: [user('hi')] }))).toBe('InvalidParameterValue.Model');
    expect(await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('a'), user('b')] }))).toBe('InvalidParameter');
    expect(
      await codeOf(
        chat({ Model: 'hunyuan-lite', Messages: [user('a'), { Role: 'system', Content: 'late' }, user('b')] }),
      ),
    ).toBe('InvalidParameter');
    expect(
      await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('a'), { Role: 'assistant', Content: 'b' }] })),
    ).toBe('InvalidParameter');
    const openAITool = { type: 'function', function: { name: 'f', parameters: { type: 'object' } } };
    expect(await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('a')], Tools: [openAITool] }))).toBe(
      'InvalidParameter',
    );
    expect(await codeOf(chat({ Model: 'hunyuan-lite', Messages: [user('a')], Temperature: 3 }))).toBe(
      'InvalidParameterValue',
    );
  });
});
