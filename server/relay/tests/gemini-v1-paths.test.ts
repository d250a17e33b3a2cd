import { GoogleGenAI } from '@google/genai';
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
 * Gemini's stable API version: @google/genai 3 sends `/v1/models/{model}:generateContent` by default (2.x
 * sends /v1beta/ unless `apiVersion: 'v1'`), and a gateway that answered 404 there broke every such client.
 * The same SDK on both versions against the same channel: the same answers, each call billed once.
 */

describe('the Gemini door on /v1/models/* as on /v1beta/models/*', () => {
  let h: RelayHarness;
  let key: string;
  let userId: number;
  const genai = (apiVersion: 'v1' | 'v1beta', apiKey = key) =>
    new GoogleGenAI({ apiKey, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, ''), apiVersion } });

  const logRows = async () =>
    (await h.deps.db.selectFrom('logs').select(['model_name', 'type']).where('user_id', '=', userId).execute()).filter(
      (r) => r.type === 2,
    ).length;

  beforeAll(async () => {
    h = await startRelayHarness();
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'gem-v1': 1 }) });
    await insertChannel(h.deps, { name: 'main', baseUrl: h.fake.url.replace(/\/v1$/, ''), models: ['gem-v1'] });
    const user = await insertUser(h.deps);
    userId = user.id;
    key = (await insertToken(h.deps, user.id, { unlimited: true })).key;
  });
  afterAll(() => h.close());

  it('answers generateContent, its stream and countTokens on v1 exactly as on v1beta, billing each call', async () => {
    const ask = { model: 'gem-v1', contents: 'Say hello' };
    const beta = await genai('v1beta').models.generateContent(ask);
    const stable = await genai('v1').models.generateContent(ask);
    expect(stable.text).toBeTruthy();
    expect(stable.text).toBe(beta.text);

    let streamed = '';
    for await (const chunk of await genai('v1').models.generateContentStream(ask)) streamed += chunk.text ?? '';
    expect(streamed).toBe(beta.text);
    await h.drain();
    expect(await logRows()).toBe(3);

    const counted = await genai('v1').models.countTokens(ask);
    expect(counted.totalTokens).toBe((await genai('v1beta').models.countTokens(ask)).totalTokens);
    expect(counted.totalTokens).toBeGreaterThan(0);
  });

  it("lists the caller's models in Gemini's shape and refuses a wrong key in Gemini's error shape on v1", async () => {
    const names: string[] = [];
    for await (const m of await genai('v1').models.list()) names.push(String(m.name));
    expect(names).toEqual(['models/gem-v1']);

    const refused = genai('v1', 'sk-not-a-key').models.generateContent({ model: 'gem-v1', contents: 'Hi' });
    await expect(refused).rejects.toMatchObject({ status: 401 });
    await expect(refused).rejects.toThrow(/UNAUTHENTICATED|无效的令牌/);
  });
});
