import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStrictUpstream } from '../../../../scripts/fake-upstream/strict/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { type CacheableBody, countBreakpoints, placeCacheBreakpoints } from './cache-breakpoints.ts';

/*
 * Automatic prompt-cache breakpoints (issue 29) through the real relay: OpenAI chat clients on the
 * strict Anthropic fake (which refuses a fifth breakpoint), its prompt cache modelled per prefix
 * (`prompt-cache`, scripts/fake-upstream/anthropic-cache.ts), and billed with the cache ratios.
 */

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Block = { type: string; cache_control?: unknown; [k: string]: unknown };
type Sent = { system?: Block[] | string; tools?: Block[]; messages: { role: string; content: Block[] }[] };

let h: RelayHarness;
let ant: FakeUpstream;
const R = { model: 2, completion: 3, cache: 0.1, creation: 1.25 };
const MODELS = ['claude-auto', 'claude-off'];
const SYSTEM = 'You are a weather assistant. Answer in one short sentence, citing the tool you used.';

beforeAll(async () => {
  h = await startRelayHarness();
  ant = await startStrictUpstream('anthropic');
  const all = (v: number) => JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, v])));
  await setOptions(h.deps, {
    ModelRatio: all(R.model),
    CompletionRatio: all(R.completion),
    CacheRatio: all(R.cache),
    CacheCreationRatio: all(R.creation),
  });
  // No setting: an Anthropic channel places breakpoints by default.
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: ['claude-auto'],
    modelMapping: { 'claude-auto': 'claude-sonnet-4-5+prompt-cache' },
  });
  await insertChannel(h.deps, {
    type: 14,
    baseUrl: ant.url,
    models: ['claude-off'],
    modelMapping: { 'claude-off': 'claude-sonnet-4-5+prompt-cache' },
    setting: { auto_cache_control: false },
  });
});
afterAll(async () => {
  await h.close();
  await ant.close();
});

const weather: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};
const sent = () => ant.requests.at(-1)!.body as unknown as Sent;
const cc = { type: 'ephemeral' };
/** Where the breakpoints of a sent body are: `system.0`, `tools.0`, `messages.2.content.0`. */
function marks(b: Sent): string[] {
  const at: string[] = [];
  if (Array.isArray(b.system)) b.system.forEach((x, i) => x.cache_control && at.push(`system.${i}`));
  b.tools?.forEach((x, i) => x.cache_control && at.push(`tools.${i}`));
  b.messages.forEach((m, i) => m.content.forEach((x, j) => x.cache_control && at.push(`messages.${i}.content.${j}`)));
  return at;
}
type Usage = OpenAI.Completions.CompletionUsage & {
  prompt_tokens_details?: { cached_tokens?: number; cache_creation_tokens?: number };
};
const cached = (u: Usage | undefined) => u?.prompt_tokens_details?.cached_tokens ?? 0;
const written = (u: Usage | undefined) => u?.prompt_tokens_details?.cache_creation_tokens ?? 0;

/** call -> tool result -> answer -> follow-up (streamed) -> call: three requests, their usages. */
async function threeTurns(model: string, key: string, first: Msg[]) {
  const c = h.client(key);
  const base = { model, tools: [weather], max_tokens: 200 };
  const messages: Msg[] = [...first];
  const r1 = await c.chat.completions.create({ ...base, messages });
  const call = r1.choices[0].message.tool_calls![0];
  const b1 = sent();
  messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  messages.push({ role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 degrees Celsius.' });
  const r2 = await c.chat.completions.create({ ...base, messages });
  const b2 = sent();
  messages.push({ role: 'assistant', content: r2.choices[0].message.content }, { role: 'user', content: 'Tomorrow?' });
  let u3: Usage | undefined;
  const s = await c.chat.completions.create({
    ...base,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const ch of s) if (ch.usage) u3 = ch.usage;
  return { bodies: [b1, b2, sent()], usages: [r1.usage as Usage, r2.usage as Usage, u3] };
}

describe('OpenAI chat clients on an Anthropic channel: automatic cache breakpoints', () => {
  it('a 3-turn conversation gets the prefix and the conversation marked; turns 2 and 3 read the cache, billed at its ratio', async () => {
    const p = await payer(h);
    const { bodies, usages } = await threeTurns('claude-auto', p.key, [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'What is the weather in Paris?' },
    ]);
    // The system prompt (after the tools: it caches both), the last block, and where the previous request ended.
    expect(marks(bodies[0])).toEqual(['system.0', 'messages.0.content.0']);
    expect(marks(bodies[1])).toEqual(['system.0', 'messages.0.content.0', 'messages.2.content.0']);
    expect(marks(bodies[2])).toEqual(['system.0', 'messages.2.content.0', 'messages.4.content.0']);
    expect(bodies[1].messages[2].content[0]).toMatchObject({ type: 'tool_result', cache_control: cc });
    expect(bodies[0].tools![0].cache_control).toBeUndefined();

    expect(cached(usages[0])).toBe(0);
    expect(written(usages[0])).toBeGreaterThan(0);
    // Each turn reads what the one before it wrote: everything but its own new blocks.
    expect(cached(usages[1])).toBe(usages[0]!.prompt_tokens);
    expect(cached(usages[2])).toBe(usages[1]!.prompt_tokens);

    const logs = await p.logs();
    expect(logs.map((l) => JSON.parse(l.other).cache_tokens as number).sort()).toEqual(usages.map(cached).sort());
    const expected = usages.map((u) =>
      quotaOf(
        {
          prompt: u!.prompt_tokens - written(u),
          completion: u!.completion_tokens,
          cached: cached(u),
          creation: written(u),
        },
        R,
      ),
    );
    expect(await p.charges()).toEqual([...expected].sort((a, b) => a - b));
  });

  it('with the channel setting off, no breakpoint is added and nothing is cached', async () => {
    const p = await payer(h);
    const { bodies, usages } = await threeTurns('claude-off', p.key, [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'What is the weather in Paris?' },
    ]);
    expect(bodies.map(marks)).toEqual([[], [], []]);
    expect(usages.map(cached)).toEqual([0, 0, 0]);
    expect(typeof bodies[0].system).toBe('string');
  });

  it("keeps the client's own breakpoints and adds only what fits in 4", async () => {
    const p = await payer(h);
    const part = (text: string) => ({ type: 'text' as const, text, cache_control: cc });
    // Three of the client's own: two system parts and the question. One is left: the last block.
    const r = await h.client(p.key).chat.completions.create({
      model: 'claude-auto',
      max_tokens: 200,
      tools: [weather],
      messages: [
        { role: 'system', content: [part('You are a weather assistant.'), part('Answer briefly.')] },
        { role: 'user', content: [part('Paris?'), { type: 'text', text: 'And its weather?' }] },
      ] as unknown as Msg[],
    });
    expect(r.choices[0].finish_reason).toBe('tool_calls');
    expect(marks(sent())).toEqual(['system.0', 'system.1', 'messages.0.content.0', 'messages.0.content.1']);

    // Four of its own: nothing added, and the strict upstream takes the request.
    await h.client(p.key).chat.completions.create({
      model: 'claude-auto',
      max_tokens: 200,
      messages: [
        { role: 'system', content: [part('One.'), part('Two.'), part('Three.')] },
        { role: 'user', content: [part('Paris?'), { type: 'text', text: 'Weather?' }] },
      ] as unknown as Msg[],
    });
    expect(marks(sent())).toEqual(['system.0', 'system.1', 'system.2', 'messages.0.content.0']);
  });
});

describe('placeCacheBreakpoints', () => {
  const text = (t: string): Block => ({ type: 'text', text: t });
  it('never marks thinking: an assistant turn ending in thinking is marked on the block before it', () => {
    const body: CacheableBody = {
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [text('hi')] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'f', input: {} },
            { type: 'thinking', thinking: 'x', signature: 's' },
          ],
        },
      ],
    };
    expect(placeCacheBreakpoints(body)).toBe(3);
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: cc }]);
    expect(body.messages[1].content.map((b) => b.cache_control)).toEqual([cc, undefined]);
    expect(body.messages[0].content[0].cache_control).toEqual(cc);
    expect(countBreakpoints(body)).toBe(3);
  });

  it('without a system prompt the last tool closes the prefix; a marked spot is not marked twice', () => {
    const body: CacheableBody = {
      tools: [{ name: 'a' }, { name: 'b' }],
      messages: [{ role: 'user', content: [{ ...text('hi'), cache_control: cc }] }],
    };
    expect(placeCacheBreakpoints(body)).toBe(1);
    expect(body.tools!.map((t) => t.cache_control)).toEqual([undefined, cc]);
    expect(countBreakpoints(body)).toBe(2);
  });

  it('counts breakpoints inside tool results and adds none past 4', () => {
    const inner = { type: 'tool_result', tool_use_id: 't', content: [{ ...text('r'), cache_control: cc }] };
    const body: CacheableBody = {
      system: [
        { ...text('s'), cache_control: cc },
        { ...text('t'), cache_control: cc },
      ],
      messages: [{ role: 'user', content: [inner, { ...text('u'), cache_control: cc }] }],
    };
    expect(countBreakpoints(body)).toBe(4);
    expect(placeCacheBreakpoints(body)).toBe(0);
  });
});
