import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../../../scripts/fake-upstream/gemini.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, PNG_1PX, quotaOf } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let fake: FakeUpstream;
const R = { model: 0.5, completion: 4, cache: 0.25 };

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeGemini();
  const models = ['gemini-t', 'gemini-2.5-flash-thinking', 'gemini-c', 'gemini-403'];
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'gemini-c': R.cache }),
    'gemini.version_settings': JSON.stringify({ default: 'v1beta', 'gemini-t': 'v1' }),
    'gemini.safety_settings': JSON.stringify({ default: 'OFF', HARM_CATEGORY_HARASSMENT: 'BLOCK_NONE' }),
    'gemini.thinking_adapter_enabled': 'true',
  });
  await insertChannel(h.deps, {
    type: 24,
    key: 'AIza-upstream',
    baseUrl: fake.url,
    models,
    autoBan: false,
    modelMapping: { 'gemini-c': 'gemini-c+cache-30', 'gemini-403': 'gemini+fail-403' },
  });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: {
      $schema: 'x',
      type: 'object',
      additionalProperties: false,
      properties: { location: { type: 'string', default: 'x' } },
    },
  },
};

describe('OpenAI clients on a Gemini channel (type 24)', () => {
  it('converts system, turns, images, safety and version settings; answers and bills', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'gemini-t',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'ok' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: PNG_1PX } },
          ],
        },
      ],
      max_tokens: 100,
      stop: ['END'],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.choices[0].finish_reason).toBe('stop');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/models/gemini-t:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(sent.body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(sent.body.generationConfig).toEqual({ maxOutputTokens: 100, stopSequences: ['END'] });
    const contents = sent.body.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[2].parts[1]).toMatchObject({ inlineData: { mimeType: 'image/png' } });
    const safety = sent.body.safetySettings as { category: string; threshold: string }[];
    expect(safety.find((s) => s.category === 'HARM_CATEGORY_HARASSMENT')?.threshold).toBe('BLOCK_NONE');
    expect(safety.find((s) => s.category === 'HARM_CATEGORY_HATE_SPEECH')?.threshold).toBe('OFF');
    const u = r.usage!;
    expect(await p.charges()).toEqual([quotaOf({ prompt: u.prompt_tokens, completion: 5 }, R)]);
  });

  it('tool calls: declarations cleaned, calls back, results sent as functionResponse; streamed too', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.chat.completions.create({
      model: 'gemini-t',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [weather],
    });
    expect(r.choices[0].finish_reason).toBe('tool_calls');
    const call = r.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]).toEqual([
      'get_weather',
      { location: 'Paris' },
    ]);
    const decl = (fake.requests.at(-1)!.body.tools as { functionDeclarations: object[] }[])[0].functionDeclarations[0];
    expect(decl).toEqual({
      name: 'get_weather',
      parameters: { type: 'object', properties: { location: { type: 'string' } } },
    });

    const s = await c.chat.completions.create({
      model: 'gemini-t',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [weather],
      stream: true,
    });
    let args = '';
    let finish = '';
    for await (const ch of s) {
      for (const t of ch.choices[0]?.delta?.tool_calls ?? []) args += t.function?.arguments ?? '';
      finish ||= ch.choices[0]?.finish_reason ?? '';
    }
    expect([JSON.parse(args), finish]).toEqual([{ location: 'Paris' }, 'tool_calls']);

    const back = await c.chat.completions.create({
      model: 'gemini-t',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' },
      ],
      tools: [weather],
    });
    expect(back.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const contents = fake.requests.at(-1)!.body.contents as { role: string; parts: object[] }[];
    // No signature is known for a call the client made up: Google's placeholder stands in (Gemini 3 needs one).
    expect(contents[1].parts[0]).toEqual({
      functionCall: { name: 'get_weather', args: { location: 'Paris' } },
      thoughtSignature: 'skip_thought_signature_validator',
    });
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }],
    });
    expect(await p.charges()).toHaveLength(3);
  });

  it('streams text (role first, usage when asked) and bills cached content tokens', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'gemini-c',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const ch of s) chunks.push(ch);
    expect(fake.requests.at(-1)!.path).toBe('/v1beta/models/gemini-c+cache-30:streamGenerateContent?alt=sse');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('w0 w1 w2 w3 w4 ');
    const usage = chunks.at(-1)!.usage!;
    expect(usage.prompt_tokens_details?.cached_tokens).toBe(30);
    const q = quotaOf({ prompt: usage.prompt_tokens, completion: 5, cached: 30 }, R);
    expect(await p.charges()).toEqual([q]);
  });

  it('thinking adapter: -thinking asks for thoughts with a budget; thoughts come back as reasoning_content', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'gemini-2.5-flash-thinking',
      messages: [{ role: 'user', content: 'x' }],
      max_tokens: 1000,
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.body.generationConfig as object).toMatchObject({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 600 },
    });
    expect(r.choices[0].message).toMatchObject({ reasoning_content: 'Let me think.', content: 'w0 w1 w2 w3 w4 ' });
    expect(r.usage!.completion_tokens).toBe(8);
  });

  it('asks image models (gemini.supported_imagine_models) for TEXT and IMAGE output', async () => {
    const p = await payer(h);
    await setOptions(h.deps, { 'gemini.supported_imagine_models': JSON.stringify(['gemini-t']) });
    await h.client(p.key).chat.completions.create({ model: 'gemini-t', messages: [{ role: 'user', content: 'draw' }] });
    expect(fake.requests.at(-1)!.body.generationConfig).toMatchObject({ responseModalities: ['TEXT', 'IMAGE'] });
    await setOptions(h.deps, { 'gemini.supported_imagine_models': '[]' });
  });

  it('maps 403 PERMISSION_DENIED to an OpenAI error', async () => {
    const p = await payer(h);
    await expect(
      h.client(p.key).chat.completions.create({ model: 'gemini-403', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 403, message: expect.stringContaining('Permission denied') });
    expect(await p.charges()).toEqual([]);
  });
});
