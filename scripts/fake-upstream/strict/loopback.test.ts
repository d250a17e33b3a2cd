/*
 * The strict fakes over real HTTP, through the official SDKs: a valid request is answered, a bad
 * one gets the provider's real error as the SDK reports it, and what the fake issues (thinking
 * signatures, thought signatures) is accepted when given back unchanged and refused when not.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../server.ts';
import { startStrictUpstream } from './index.ts';

const ups: FakeUpstream[] = [];
const start = async (d: Parameters<typeof startStrictUpstream>[0]) => {
  const u = await startStrictUpstream(d);
  ups.push(u);
  return u;
};
afterAll(() => Promise.all(ups.map((u) => u.close())));

describe('strict OpenAI fake', () => {
  let openai: OpenAI;
  beforeAll(async () => {
    const u = await start('openai');
    openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${u.url}/v1`, maxRetries: 0 });
  });

  it('answers a valid chat request and refuses max_tokens on a reasoning model', async () => {
    const ok = await openai.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 50,
    });
    expect(ok.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const err = await openai.chat.completions
      .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toBe(
      "400 Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    );
  });

  it('refuses an unknown Responses parameter', async () => {
    const err = await openai.responses
      .create({ model: 'gpt-4o', input: 'hi', ...({ max_tokens: 5 } as object) })
      .catch((e: unknown) => e);
    expect((err as { status?: number; code?: string }).status).toBe(400);
    expect((err as { code?: string }).code).toBe('unknown_parameter');
  });
});

describe('strict chat-only OpenAI-compatible fake', () => {
  it('answers chat completions and has no Responses API', async () => {
    const u = await start('openai-chat-only');
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${u.url}/v1`, maxRetries: 0 });
    const ok = await client.chat.completions.create({
      model: 'deepseek-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const err = await client.responses.create({ model: 'deepseek-chat', input: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('strict Anthropic fake', () => {
  it('takes back the thinking it signed in a tool loop, and refuses a forged signature', async () => {
    const u = await start('anthropic');
    const client = new Anthropic({ apiKey: 'sk-ant', baseURL: u.url, maxRetries: 0 });
    const tools = [
      { name: 'get_weather', input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } } },
    ];
    const base = {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      tools,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
    };
    const user = { role: 'user' as const, content: 'Weather in Paris?' };
    const first = await client.messages.create({ ...base, messages: [user] });
    const use = first.content.find((b) => b.type === 'tool_use');
    expect(first.content[0].type).toBe('thinking');
    expect(use).toBeDefined();
    const result = {
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, tool_use_id: use!.id, content: 'sunny' }],
    };
    const second = await client.messages.create({
      ...base,
      messages: [user, { role: 'assistant', content: first.content }, result],
    });
    expect(second.content.at(-1)?.type).toBe('text');

    const forged = first.content.map((b) => (b.type === 'thinking' ? { ...b, signature: 'sig-fake' } : b));
    const err = await client.messages
      .create({ ...base, messages: [user, { role: 'assistant', content: forged }, result] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as { error?: unknown }).error).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'messages.1.content.0: Invalid `signature` in `thinking` block',
      },
    });
  });
});

describe('strict Gemini fake', () => {
  it('takes back a Gemini 3 call with the signature it issued, and refuses the call without it', async () => {
    const u = await start('gemini');
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: u.url } });
    const tools = [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } } },
          },
        ],
      },
    ];
    const user = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
    const model = 'gemini-3-pro-preview';
    const first = await ai.models.generateContent({ model, contents: [user], config: { tools } });
    const turn = first.candidates![0].content!;
    expect(turn.parts![0].thoughtSignature).toBeTruthy();
    const answer = {
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }],
    };
    const second = await ai.models.generateContent({ model, contents: [user, turn, answer], config: { tools } });
    expect(second.text).toBe('w0 w1 w2 w3 w4 ');

    const unsigned = { role: 'model', parts: turn.parts!.map(({ thoughtSignature: _, ...p }) => p) };
    const err = await ai.models
      .generateContent({ model, contents: [user, unsigned, answer], config: { tools } })
      .catch((e: unknown) => e);
    expect((err as { status?: number }).status).toBe(400);
    expect(String((err as Error).message)).toContain(
      'Function call is missing a thought_signature in functionCall parts.',
    );
  });
});
