import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { ascending, payer, PNG_1PX, quotaOf, startAnthropic } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let ant: FakeUpstream;
let gem: FakeUpstream;
const R = { model: 0.75, completion: 4, cache: 0.25 };
const models = ['gem-n', 'gem-n-cache', 'gpt-g', 'claude-g', 'gem-400', 'gem-sys'];

beforeAll(async () => {
  h = await startRelayHarness();
  ant = await startAnthropic();
  gem = await startFakeGemini();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'gem-n-cache': R.cache }),
  });
  await insertChannel(h.deps, {
    type: 24,
    baseUrl: gem.url,
    models: ['gem-n', 'gem-n-cache', 'gem-400'],
    modelMapping: { 'gem-n-cache': 'gem-n+cache-25', 'gem-400': 'gem+fail-400' },
  });
  await insertChannel(h.deps, { type: 1, baseUrl: h.fake.url, models: ['gpt-g'] });
  await insertChannel(h.deps, { type: 14, baseUrl: ant.url, models: ['claude-g'] });
  await insertChannel(h.deps, { type: 24, baseUrl: gem.url, models: ['gem-sys'], systemPrompt: 'House rules.' });
});
afterAll(async () => {
  await h.close();
  await ant.close();
  await gem.close();
});

const genai = (key: string) =>
  new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
const weather = {
  functionDeclarations: [
    { name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } } } },
  ],
};
const image = { inlineData: { mimeType: 'image/png', data: PNG_1PX.split(',')[1] } };

describe('Gemini front door with the official @google/genai SDK', () => {
  it('relays natively (x-goog-api-key), streams, and bills cachedContentTokenCount to the unit', async () => {
    const p = await payer(h);
    const ai = genai(p.key.slice(3));
    const r = await ai.models.generateContent({
      model: 'gem-n-cache',
      contents: [{ role: 'user', parts: [{ text: 'hi' }, image] }],
      config: { systemInstruction: 'Be brief.' },
    });
    expect(r.text).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usageMetadata?.cachedContentTokenCount).toBe(25);
    const sent = gem.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gem-n+cache-25:generateContent');
    expect(sent.body.systemInstruction).toMatchObject({ parts: [{ text: 'Be brief.' }] });
    let text = '';
    let last;
    for await (const ch of await ai.models.generateContentStream({ model: 'gem-n', contents: 'hi' })) {
      text += ch.text ?? '';
      last = ch;
    }
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    const u1 = r.usageMetadata!;
    const u2 = last!.usageMetadata!;
    expect(await p.charges()).toEqual(
      ascending([
        quotaOf({ prompt: u1.promptTokenCount!, completion: 5, cached: 25 }, R),
        quotaOf({ prompt: u2.promptTokenCount!, completion: 5 }, R),
      ]),
    );
  });

  it("a native request gets the channel's system prompt only when it has no systemInstruction", async () => {
    const ai = genai((await payer(h)).key.slice(3));
    await ai.models.generateContent({ model: 'gem-sys', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gem.requests.at(-1)!.body.systemInstruction).toEqual({ parts: [{ text: 'House rules.' }] });
    await ai.models.generateContent({
      model: 'gem-sys',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: { systemInstruction: 'Be brief.' },
    });
    expect(gem.requests.at(-1)!.body.systemInstruction).toMatchObject({ parts: [{ text: 'Be brief.' }] });
  });

  it('function calling natively, not streamed and streamed', async () => {
    const p = await payer(h);
    const ai = genai(p.key);
    const r = await ai.models.generateContent({ model: 'gem-n', contents: 'weather?', config: { tools: [weather] } });
    expect(r.functionCalls).toEqual([{ name: 'get_weather', args: { location: 'Paris' } }]);
    const calls = [];
    for await (const ch of await ai.models.generateContentStream({
      model: 'gem-n',
      contents: 'weather?',
      config: { tools: [weather] },
    }))
      calls.push(...(ch.functionCalls ?? []));
    expect(calls).toEqual([{ name: 'get_weather', args: { location: 'Paris' } }]);
  });

  for (const [label, model] of [
    ['an OpenAI', 'gpt-g'],
    ['an Anthropic', 'claude-g'],
  ] as const) {
    it(`converts to ${label} channel and back: text, image, stream, usage and billing`, async () => {
      const p = await payer(h);
      const ai = genai(p.key);
      const r = await ai.models.generateContent({
        model,
        contents: [{ role: 'user', parts: [{ text: 'see' }, image] }],
        config: { maxOutputTokens: 50 },
      });
      expect(r.text).toBe('w0 w1 w2 w3 w4 ');
      expect(r.candidates?.[0].finishReason).toBe('STOP');
      const u = r.usageMetadata!;
      expect(u.candidatesTokenCount).toBe(5);
      let text = '';
      let last;
      for await (const ch of await ai.models.generateContentStream({ model, contents: 'hi' })) {
        text += ch.text ?? '';
        last = ch;
      }
      expect(text).toBe('w0 w1 w2 w3 w4 ');
      const u2 = last!.usageMetadata!;
      expect(u2.candidatesTokenCount).toBe(5);
      expect(await p.charges()).toEqual(
        ascending([
          quotaOf({ prompt: u.promptTokenCount!, completion: 5 }, R),
          quotaOf({ prompt: u2.promptTokenCount!, completion: 5 }, R),
        ]),
      );
    });
  }

  it('converts function calling to an Anthropic channel, streamed and not, and sends results back', async () => {
    const p = await payer(h);
    const ai = genai(p.key);
    const r = await ai.models.generateContent({
      model: 'claude-g',
      contents: 'weather?',
      config: { tools: [weather] },
    });
    // The upstream's call id reaches the client (the next turn's functionResponse names it).
    expect(r.functionCalls).toEqual([{ id: 'toolu_fake1', name: 'get_weather', args: { location: 'Paris' } }]);
    const calls = [];
    for await (const ch of await ai.models.generateContentStream({
      model: 'claude-g',
      contents: 'weather?',
      config: { tools: [weather] },
    }))
      calls.push(...(ch.functionCalls ?? []));
    expect(calls).toEqual([{ id: expect.any(String), name: 'get_weather', args: { location: 'Paris' } }]);
    const back = await ai.models.generateContent({
      model: 'claude-g',
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }] },
      ],
      config: { tools: [weather] },
    });
    expect(back.text).toBe('w0 w1 w2 w3 w4 ');
    const msgs = ant.requests.at(-1)!.body.messages as {
      content: { type: string; tool_use_id?: string; id?: string }[];
    }[];
    expect(msgs[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: msgs[1].content[0].id,
      content: '{"sky":"sunny"}',
    });
  });

  it('answers in Gemini error shape and lists models Gemini-style (?key=)', async () => {
    const p = await payer(h);
    const bad = await fetch(`${h.baseURL.replace(/\/v1$/, '')}/v1beta/models/gem-400:generateContent?key=${p.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('invalid argument') },
    });
    const noKey = await fetch(`${h.baseURL.replace(/\/v1$/, '')}/v1beta/models/gem-n:generateContent`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await noKey.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const list = await genai(p.key).models.list();
    const names = [];
    for await (const m of list) names.push(m.name);
    expect(names).toEqual(expect.arrayContaining(['models/gem-n', 'models/gpt-g']));
    expect(await p.charges()).toEqual([]);
  });
});
