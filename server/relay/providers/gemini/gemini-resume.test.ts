import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { startStrictUpstream } from '../../../../scripts/fake-upstream/strict/index.ts';
import { payer, PNG_1PX } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { dropRepeatedResponses } from '../../front-doors/gemini/repeated-responses.ts';

/*
 * Gemini CLI 0.61 resuming a session (`gemini --resume latest`) sends every restored tool answer twice
 * (front-doors/gemini/repeated-responses.ts). The strict fakes refuse that as Gemini and OpenAI-compatible
 * vendors do, so these requests only pass when the gateway sends each answer once.
 */

let h: RelayHarness;
let gem: FakeUpstream;
let chatOnly: FakeUpstream;

beforeAll(async () => {
  h = await startRelayHarness();
  gem = await startStrictUpstream('gemini');
  chatOnly = await startStrictUpstream('openai-chat-only');
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'resume-gem': 1, 'resume-co': 1 }),
    CompletionRatio: JSON.stringify({ 'resume-gem': 1, 'resume-co': 1 }),
  });
  await insertChannel(h.deps, {
    type: 24,
    baseUrl: gem.url,
    models: ['resume-gem'],
    modelMapping: { 'resume-gem': 'gemini-2.5-flash' },
  });
  await insertChannel(h.deps, {
    type: 43,
    baseUrl: chatOnly.url,
    models: ['resume-co'],
    modelMapping: { 'resume-co': 'deepseek-chat' },
  });
});
afterAll(async () => {
  await h.close();
  await gem.close();
  await chatOnly.close();
});

const image = { inlineData: { mimeType: 'image/png', data: PNG_1PX.split(',')[1] } };
const call = (id: string, path: string) => ({ functionCall: { id, name: 'read_file', args: { absolute_path: path } } });
const answer = (id: string, output: string) => ({
  functionResponse: { id, name: 'read_file', response: { output } },
});

/** A resumed Gemini CLI session as it reaches the gateway: each restored tool turn's answers twice. */
const resumed = [
  { role: 'user', parts: [{ text: 'Read notes.txt and the picture.' }] },
  { role: 'model', parts: [call('read_file_1_0', '/w/notes.txt')] },
  { role: 'user', parts: [answer('read_file_1_0', 'see picture.png'), answer('read_file_1_0', 'see picture.png')] },
  { role: 'model', parts: [call('read_file_2_0', '/w/picture.png')] },
  {
    role: 'user',
    parts: [
      answer('read_file_2_0', 'Binary content provided'),
      image,
      answer('read_file_2_0', 'Binary content provided'),
      image,
    ],
  },
  { role: 'model', parts: [{ text: 'The picture is 1x1.' }] },
  { role: 'user', parts: [{ text: 'What did notes.txt say?' }] },
];

const genai = (key: string) =>
  new GoogleGenAI({ apiKey: key.slice(3), httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });

describe('a resumed Gemini CLI session (each tool answer sent twice)', () => {
  it('reaches a Gemini channel with one answer per call, the picture once', async () => {
    const p = await payer(h);
    const r = await genai(p.key).models.generateContent({ model: 'resume-gem', contents: resumed });
    expect(r.text).toBeTruthy();
    const sent = gem.requests.at(-1)!.body.contents as { parts: Record<string, unknown>[] }[];
    expect(sent[2].parts).toEqual([answer('read_file_1_0', 'see picture.png')]);
    expect(sent[4].parts).toEqual([answer('read_file_2_0', 'Binary content provided'), image]);
    expect(sent).toHaveLength(resumed.length);
  });

  it('reaches a chat-only vendor as one tool message per call, streamed too', async () => {
    const p = await payer(h);
    const ai = genai(p.key);
    const r = await ai.models.generateContent({ model: 'resume-co', contents: resumed });
    expect(r.text).toBeTruthy();
    const tools = (chatOnly.requests.at(-1)!.body.messages as { role: string; tool_call_id?: string }[]).filter(
      (m) => m.role === 'tool',
    );
    expect(tools.map((m) => m.tool_call_id)).toHaveLength(2);
    expect(new Set(tools.map((m) => m.tool_call_id)).size).toBe(2);
    let text = '';
    for await (const c of await ai.models.generateContentStream({ model: 'resume-co', contents: resumed }))
      text += c.text ?? '';
    expect(text).toBeTruthy();
  });
});

describe('dropRepeatedResponses', () => {
  it('leaves turns without repeats (and answers without ids) as they are, the same array', () => {
    const plain = [
      { role: 'user', parts: [{ text: 'hi' }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'f', response: {} } }, { functionResponse: { name: 'f', response: {} } }],
      },
    ];
    expect(dropRepeatedResponses(plain)).toBe(plain);
  });

  it('keeps the first answer of each call and what rides with it, in order', () => {
    const parts = [answer('a', '1'), image, answer('b', '2'), answer('a', '1'), image, answer('b', '2')];
    expect(dropRepeatedResponses([{ role: 'user', parts }])[0].parts).toEqual([
      answer('a', '1'),
      image,
      answer('b', '2'),
    ]);
  });
});
