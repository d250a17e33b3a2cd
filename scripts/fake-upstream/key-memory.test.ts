import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from './gemini.ts';
import { type FakeUpstream, startFakeOpenAI } from './server.ts';

/*
 * The fakes' per-key prompt cache (`prompt-cache`) and per-key failure (`fail-after-<n>`), spoken to
 * over HTTP as the gateway speaks to them.
 */

let openai: FakeUpstream;
let gemini: FakeUpstream;
beforeAll(async () => {
  openai = await startFakeOpenAI();
  gemini = await startFakeGemini();
});
afterAll(async () => {
  await openai.close();
  await gemini.close();
});

const long = 'Some instructions that every turn repeats. '.repeat(40);

async function chat(key: string, messages: object[]) {
  const res = await fetch(`${openai.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages }),
  });
  const body = (await res.json()) as {
    usage?: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
  };
  return {
    status: res.status,
    prompt: body.usage?.prompt_tokens ?? 0,
    cached: body.usage?.prompt_tokens_details.cached_tokens ?? 0,
  };
}

async function generate(key: string, contents: object[]) {
  const res = await fetch(`${gemini.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
    method: 'POST',
    headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ systemInstruction: { parts: [{ text: long }] }, contents }),
  });
  const body = (await res.json()) as { usageMetadata: { promptTokenCount: number; cachedContentTokenCount?: number } };
  return { prompt: body.usageMetadata.promptTokenCount, cached: body.usageMetadata.cachedContentTokenCount ?? 0 };
}

describe('the fake upstreams remember prompts per key', () => {
  it('OpenAI: the cached tokens are the longest prefix the same key sent before, whole messages', async () => {
    const turn1 = [
      { role: 'system', content: long },
      { role: 'user', content: 'first question' },
    ];
    const turn2 = [...turn1, { role: 'assistant', content: 'an answer' }, { role: 'user', content: 'second' }];
    const a1 = await chat('ka+prompt-cache', turn1);
    const a2 = await chat('ka+prompt-cache', turn2);
    expect(a1.cached).toBe(0);
    // Everything turn 1 sent (its prompt less the 3-token reply primer) is read back.
    expect(a2.cached).toBe(a1.prompt - 3);
    // Another key has seen nothing; without the token nothing is cached.
    expect((await chat('kb+prompt-cache', turn2)).cached).toBe(0);
    expect((await chat('kc', turn2)).cached).toBe(0);
    // A prompt that differs from the first message on shares no prefix.
    expect((await chat('ka+prompt-cache', [{ role: 'system', content: 'other' }, ...turn2.slice(1)])).cached).toBe(0);
  });

  it('OpenAI: fail-after-<n> answers n requests of the key, then 429s', async () => {
    const m = [{ role: 'user', content: 'hi' }];
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await chat('kf+fail-after-2', m)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await chat('kg', m)).status).toBe(200);
  });

  it('Gemini: cachedContentTokenCount follows the same rule', async () => {
    const turn1 = [{ role: 'user', parts: [{ text: 'first question' }] }];
    const turn2 = [
      ...turn1,
      { role: 'model', parts: [{ text: 'answer' }] },
      { role: 'user', parts: [{ text: 'next' }] },
    ];
    const g1 = await generate('gk+prompt-cache', turn1);
    const g2 = await generate('gk+prompt-cache', turn2);
    expect(g1.cached).toBe(0);
    expect(g2.cached).toBeGreaterThan(0);
    expect(g2.cached).toBeLessThan(g2.prompt);
    expect(Math.abs(g2.cached - (g1.prompt - 3))).toBeLessThanOrEqual(2);
    expect((await generate('gl+prompt-cache', turn2)).cached).toBe(0);
  });
});
