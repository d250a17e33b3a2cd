import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';

/*
 * relay.md §8: a channel with `{"thinking_to_content": true}` in its settings gives OpenAI chat
 * clients the upstream's reasoning as <think> text in `content`. The fake upstream sends
 * `reasoning-<n>` pieces "r0 r1 …" as `reasoning_content` (or `reasoning` with `or-reasoning-<n>`)
 * before the content pieces "w0 w1 …".
 */

let h: RelayHarness;
const R = { model: 2, completion: 4 };
const upstream = {
  ds: 'deepseek-reasoner+reasoning-3+chunks-2',
  end: 'deepseek-reasoner+reasoning-2+chunks-0',
  or: 'or-model+or-reasoning-2+chunks-2',
  nousage: 'deepseek-reasoner+reasoning-3+chunks-2+no-usage',
};
const models = ['think', 'think-end', 'think-or', 'think-nousage', 'plain', 'plain-nousage'];

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['think', 'think-end', 'think-or', 'think-nousage'],
    modelMapping: {
      think: upstream.ds,
      'think-end': upstream.end,
      'think-or': upstream.or,
      'think-nousage': upstream.nousage,
    },
    setting: { thinking_to_content: true },
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['plain', 'plain-nousage'],
    modelMapping: { plain: upstream.ds, 'plain-nousage': upstream.nousage },
  });
});
afterAll(async () => {
  await h.close();
});

const messages = [{ role: 'user' as const, content: 'Why is the sky blue?' }];

/** A streamed delta as the client sees it, reasoning fields included (the SDK's type omits them). */
type Delta = { content?: string | null; reasoning_content?: string; reasoning?: string };

async function streamed(key: string, model: string) {
  const s = await h.client(key).chat.completions.create({ model, messages, stream: true });
  const deltas: Delta[] = [];
  for await (const c of s) if (c.choices[0]?.delta) deltas.push(c.choices[0].delta as Delta);
  return {
    deltas,
    contents: deltas.map((d) => d.content ?? '').filter((c) => c !== ''),
    text: deltas.map((d) => d.content ?? '').join(''),
  };
}

async function unstreamed(key: string, model: string) {
  const r = await h.client(key).chat.completions.create({ model, messages });
  return r.choices[0].message as { content: string | null; reasoning_content?: string; reasoning?: string };
}

describe('thinking_to_content channels (OpenAI-style upstream)', () => {
  it('streamed: <think> opens the first reasoning delta, reasoning comes as content, </think> before the answer', async () => {
    const p = await payer(h);
    const s = await streamed(p.key, 'think');
    expect(s.contents).toEqual(['<think>\nr0 ', 'r1 ', 'r2 ', '\n</think>\n\nw0 ', 'w1 ']);
    expect(s.text).toBe('<think>\nr0 r1 r2 \n</think>\n\nw0 w1 ');
    for (const d of s.deltas) {
      expect(d).not.toHaveProperty('reasoning_content');
      expect(d).not.toHaveProperty('reasoning');
    }
  });

  it('non-streamed: content is <think>\\n{reasoning}\\n</think>\\n\\n{content}, the reasoning field is gone', async () => {
    const p = await payer(h);
    const m = await unstreamed(p.key, 'think');
    expect(m.content).toBe('<think>\nr0 r1 r2 \n</think>\n\nw0 w1 ');
    expect(m).not.toHaveProperty('reasoning_content');
  });

  it('an answer that ends in reasoning still closes </think>, streamed and not', async () => {
    const p = await payer(h);
    const s = await streamed(p.key, 'think-end');
    expect(s.text).toBe('<think>\nr0 r1 \n</think>\n\n');
    expect((await unstreamed(p.key, 'think-end')).content).toBe('<think>\nr0 r1 \n</think>\n\n');
  });

  it('upstreams that name the field `reasoning` (OpenRouter) are converted the same way', async () => {
    const p = await payer(h);
    const s = await streamed(p.key, 'think-or');
    expect(s.contents).toEqual(['<think>\nr0 ', 'r1 ', '\n</think>\n\nw0 ', 'w1 ']);
    for (const d of s.deltas) expect(d).not.toHaveProperty('reasoning');
    const m = await unstreamed(p.key, 'think-or');
    expect(m.content).toBe('<think>\nr0 r1 \n</think>\n\nw0 w1 ');
    expect(m).not.toHaveProperty('reasoning');
  });

  it('a channel without the setting passes reasoning_content through untouched', async () => {
    const p = await payer(h);
    const s = await streamed(p.key, 'plain');
    expect(s.text).toBe('w0 w1 ');
    expect(s.deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('r0 r1 r2 ');
    const m = await unstreamed(p.key, 'plain');
    expect(m.content).toBe('w0 w1 ');
    expect(m.reasoning_content).toBe('r0 r1 r2 ');
  });

  it('billing is unchanged: the same tokens and quota as without the setting, with and without upstream usage', async () => {
    const think = await payer(h);
    const plain = await payer(h);
    for (const [p, model] of [
      [think, 'think'],
      [plain, 'plain'],
      [think, 'think-nousage'],
      [plain, 'plain-nousage'],
    ] as const) {
      await streamed(p.key, model);
      await unstreamed(p.key, model);
    }
    const rows = (logs: Awaited<ReturnType<typeof think.logs>>) =>
      logs.map((l) => [l.is_stream, l.prompt_tokens, l.completion_tokens, l.quota]);
    const thinkLogs = await think.logs();
    expect(rows(thinkLogs)).toEqual(rows(await plain.logs()));
    // With usage: the upstream's 3 reasoning + 2 content tokens are the completion.
    const [s, j] = thinkLogs;
    expect([s.completion_tokens, j.completion_tokens]).toEqual([5, 5]);
    expect(s.quota).toBe(quotaOf({ prompt: s.prompt_tokens, completion: 5 }, R));
  });

  it('the Anthropic front door keeps thinking blocks on the same channel', async () => {
    const p = await payer(h);
    const anthropic = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const m = await anthropic.messages.create({ model: 'think', max_tokens: 100, messages });
    expect(m.content).toEqual([
      expect.objectContaining({ type: 'thinking', thinking: 'r0 r1 r2 ' }),
      expect.objectContaining({ type: 'text', text: 'w0 w1 ' }),
    ]);
  });
});
