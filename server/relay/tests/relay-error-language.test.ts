import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

/*
 * Errors in the reader's language (issue 45): the relay answers API callers in the site's language,
 * Chinese as new-api does, and in English when the request's Accept-Language prefers it; the stable code
 * a program reads is the same both ways. Through each official SDK, as a user's script meets them.
 */

const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };

let h: RelayHarness;
let key: string;
let fenced: string;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'lang-model': 1 }) });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['lang-model', 'unpriced'] });
  const user = await insertUser(h.deps);
  key = (await insertToken(h.deps, user.id)).key;
  fenced = (await insertToken(h.deps, user.id, { allowIps: '10.0.0.1' })).key;
});
afterAll(async () => {
  await h.close();
});

const root = () => h.baseURL.replace(/\/v1$/, '');
const openai = (apiKey: string, headers: Record<string, string> = {}) =>
  new OpenAI({ apiKey, baseURL: h.baseURL, maxRetries: 0, defaultHeaders: headers });
const anthropic = (apiKey: string, headers: Record<string, string> = {}) =>
  new Anthropic({ apiKey, baseURL: root(), maxRetries: 0, defaultHeaders: headers });
const gemini = (apiKey: string, headers: Record<string, string> = {}) =>
  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: root(), headers } });

/** What the OpenAI SDK's caller sees of a refusal. */
async function openaiRefusal(apiKey: string, model: string, headers?: Record<string, string>) {
  const err = await openai(apiKey, headers)
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(OpenAI.APIError);
  const e = err as InstanceType<typeof OpenAI.APIError>;
  return { status: e.status, code: e.code, type: e.type, message: e.message };
}

async function anthropicRefusal(apiKey: string, model: string, headers?: Record<string, string>) {
  const err = await anthropic(apiKey, headers)
    .messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(Anthropic.APIError);
  const e = err as InstanceType<typeof Anthropic.APIError>;
  const body = e.error as { error: { type: string; code?: string; message: string } };
  return { status: e.status, type: body.error.type, code: body.error.code, message: body.error.message };
}

async function geminiRefusal(apiKey: string, model: string, headers?: Record<string, string>) {
  const err = await gemini(apiKey, headers)
    .models.generateContent({ model, contents: 'hi' })
    .then(
      () => undefined,
      (e: unknown) => e as { status: number; message: string },
    );
  expect(err).toBeDefined();
  // The SDK's ApiError carries Google's error object as JSON in its message.
  const body = JSON.parse(err!.message.slice(err!.message.indexOf('{'))) as {
    error: { status: string; message: string; details?: { reason: string }[] };
  };
  return {
    status: err!.status,
    grpc: body.error.status,
    code: body.error.details?.[0]?.reason,
    message: body.error.message,
  };
}

describe('relay errors in the caller’s language, with one stable code', () => {
  it('OpenAI SDK: an invalid key, an unpriced model and an IP not allowed, in Chinese by default, English when asked', async () => {
    const cases = [
      {
        apiKey: 'sk-nosuchkey',
        model: 'lang-model',
        status: 401,
        code: 'invalid_api_key',
        zh: '无效的令牌',
        en: 'Invalid token',
      },
      {
        apiKey: key,
        model: 'unpriced',
        status: 403,
        code: 'model_price_error',
        zh: '模型 unpriced 的模型倍率或价格未配置，请联系管理员设置',
        en: 'No ratio or price is set for model unpriced',
      },
      {
        apiKey: fenced,
        model: 'lang-model',
        status: 403,
        code: 'ip_not_allowed',
        zh: '不在令牌允许访问的列表中',
        en: "is not in this token's allow-list",
      },
    ];
    for (const c of cases) {
      const zh = await openaiRefusal(c.apiKey, c.model);
      expect(zh, c.code).toMatchObject({ status: c.status, code: c.code });
      expect(zh.message).toContain(c.zh);
      const en = await openaiRefusal(c.apiKey, c.model, ENGLISH);
      expect(en, c.code).toMatchObject({ status: c.status, code: c.code, type: zh.type });
      expect(en.message).toContain(c.en);
      expect(en.message).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('Anthropic SDK: the same refusals, error.type Anthropic’s own and the stable code beside it', async () => {
    const zhKey = await anthropicRefusal('sk-nosuchkey', 'lang-model');
    expect(zhKey).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key' });
    expect(zhKey.message).toContain('无效的令牌');
    const enKey = await anthropicRefusal('sk-nosuchkey', 'lang-model', ENGLISH);
    expect(enKey).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key' });
    expect(enKey.message).toContain('Invalid token');

    const zhPrice = await anthropicRefusal(key, 'unpriced');
    expect(zhPrice).toMatchObject({ status: 403, type: 'permission_error', code: 'model_price_error' });
    expect(zhPrice.message).toContain('模型 unpriced 的模型倍率或价格未配置');
    const enIp = await anthropicRefusal(fenced, 'lang-model', ENGLISH);
    expect(enIp).toMatchObject({ status: 403, code: 'ip_not_allowed' });
    expect(enIp.message).toContain("is not in this token's allow-list");
  });

  it('Gemini SDK: the same refusals, the stable code as the ErrorInfo reason', async () => {
    const zhKey = await geminiRefusal('sk-nosuchkey', 'lang-model');
    expect(zhKey).toMatchObject({ status: 401, grpc: 'UNAUTHENTICATED', code: 'invalid_api_key' });
    expect(zhKey.message).toContain('无效的令牌');
    const enPrice = await geminiRefusal(key, 'unpriced', ENGLISH);
    expect(enPrice).toMatchObject({ status: 403, grpc: 'PERMISSION_DENIED', code: 'model_price_error' });
    expect(enPrice.message).toContain('No ratio or price is set for model unpriced');
    const zhIp = await geminiRefusal(fenced, 'lang-model');
    expect(zhIp).toMatchObject({ status: 403, code: 'ip_not_allowed' });
    expect(zhIp.message).toContain('不在令牌允许访问的列表中');
  });

  it('weighs Accept-Language by q-value; a language it does not speak leaves Chinese', async () => {
    const said = async (acceptLanguage: string) =>
      (await openaiRefusal('sk-nosuchkey', 'lang-model', { 'accept-language': acceptLanguage })).message;
    expect(await said('zh-CN;q=0.5, en;q=0.8')).toContain('Invalid token');
    expect(await said('en;q=0.4, zh-TW')).toContain('无效的令牌');
    expect(await said('fr-FR, de;q=0.9')).toContain('无效的令牌');
    expect(await said('fr-FR, en;q=0.5')).toContain('Invalid token');
  });
});

describe('task doors in the caller’s language', () => {
  it('Midjourney and Suno answer an invalid key in Chinese by default and English when asked, with its code', async () => {
    const ask = async (path: string, headers: Record<string, string> = {}) => {
      const res = await request(`${root()}${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-nosuchkey', 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ prompt: 'a cat' }),
      });
      return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
    };
    const mj = await ask('/mj/submit/imagine');
    expect(mj).toMatchObject({ status: 401, body: { type: 'invalid_api_key' } });
    expect(mj.body.description).toContain('无效的令牌');
    const mjEn = await ask('/mj/submit/imagine', ENGLISH);
    expect(mjEn).toMatchObject({ status: 401, body: { type: 'invalid_api_key' } });
    expect(mjEn.body.description).toContain('Invalid token');
    const suno = await ask('/suno/submit/music', ENGLISH);
    expect(suno).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    expect(suno.body.message).toContain('Invalid token');
  });
});

describe('REST /api errors in the caller’s language', () => {
  it('answers new-api’s Chinese by default and English when the header prefers it', async () => {
    const login = async (headers: Record<string, string>, username: unknown = 'nobody-here') => {
      const res = await request(`${root()}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ username, password: 'wrong-password' }),
      });
      return (await res.body.json()) as { success: boolean; message: string };
    };
    expect(await login({})).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
    const en = await login(ENGLISH);
    expect(en.success).toBe(false);
    expect(en.message).toMatch(/^[\x20-\x7e]+$/);
    expect(en.message.toLowerCase()).toContain('password');
    // A message whose parameter is itself a message (the field's name) is English throughout.
    const zhField = await login({}, 12345);
    expect(zhField.message).toMatch(/^用户名/);
    const enField = await login(ENGLISH, 12345);
    expect(enField.message).toMatch(/^[\x20-\x7e]+$/);
    expect(enField.message).toMatch(/^Username/);
  });
});
