import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicPromptCache } from './anthropic-cache.ts';
import { startFakeAnthropic } from './anthropic.ts';
import { fakeNativePrompt } from './native-http.ts';
import type { FakeUpstream } from './server.ts';

const mark = { cache_control: { type: 'ephemeral' } };
const SYSTEM = 'You are a careful assistant. '.repeat(40);
const text = (t: string, cached = false) => ({ type: 'text', text: t, ...(cached ? mark : {}) });
const body = (messages: { role: string; content: unknown[] }[], systemMarked = true) => ({
  model: 'claude-sonnet-4-5',
  system: [text(SYSTEM, systemMarked)],
  messages,
});
const total = (b: ReturnType<typeof body>) => fakeNativePrompt(b.messages, b.system);

describe('the fake Anthropic prompt cache', () => {
  it('writes at the breakpoints, then reads the longest cached prefix; the three parts add up to the prompt', () => {
    const cache = createAnthropicPromptCache();
    const turn1 = body([{ role: 'user', content: [text('What is the weather in Paris?', true)] }]);
    const first = cache.account('key-a', turn1, total(turn1));
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBe(total(turn1));
    expect(first.input_tokens).toBe(0);

    // Turn 2: the conversation so far is the same prefix, its breakpoint moved to the new last block.
    const turn2 = body([
      { role: 'user', content: [text('What is the weather in Paris?')] },
      { role: 'assistant', content: [text('Sunny.')] },
      { role: 'user', content: [text('And tomorrow?', true)] },
    ]);
    const second = cache.account('key-a', turn2, total(turn2));
    expect(second.cache_read_input_tokens).toBe(total(turn1));
    expect(second.cache_creation_input_tokens).toBe(total(turn2) - total(turn1));
    expect(second.input_tokens + second.cache_read_input_tokens + second.cache_creation_input_tokens).toBe(
      total(turn2),
    );
  });

  it('caches nothing without breakpoints, and nothing across keys or models', () => {
    const cache = createAnthropicPromptCache();
    const plain = body([{ role: 'user', content: [text('hi')] }], false);
    expect(cache.account('key-a', plain, total(plain))).toEqual({
      input_tokens: total(plain),
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    const marked = body([{ role: 'user', content: [text('hi')] }]);
    cache.account('key-a', marked, total(marked));
    expect(cache.account('key-b', marked, total(marked)).cache_read_input_tokens).toBe(0);
    expect(cache.account('key-a', { ...marked, model: 'claude-opus-4-1' }, total(marked)).cache_read_input_tokens).toBe(
      0,
    );
    expect(cache.account('key-a', marked, total(marked)).cache_read_input_tokens).toBeGreaterThan(0);
  });
});

describe('the fake Anthropic upstream with `prompt-cache`', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());

  const send = async (model: string, b: ReturnType<typeof body>) => {
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...b, model, max_tokens: 50 }),
    });
    return ((await res.json()) as { usage: Record<string, number> }).usage;
  };

  it('reports the second identical request as a cache read; without the token, the fixed counts as before', async () => {
    const b = body([{ role: 'user', content: [text('hi', true)] }]);
    expect(await send('claude-sonnet-4-5+prompt-cache', b)).toMatchObject({
      cache_creation_input_tokens: total(b),
      cache_read_input_tokens: 0,
    });
    expect(await send('claude-sonnet-4-5+prompt-cache', b)).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: total(b),
      input_tokens: 0,
    });
    expect(await send('claude-sonnet-4-5', b)).toMatchObject({
      input_tokens: total(b),
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });
});
