import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { FAKE_BEDROCK_SECRET, startFakeBedrock } from '../../../../scripts/fake-upstream/bedrock.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/** Ratios of every Bedrock test model (cache ratios on the `-cache` ones). */
export const R = { model: 1.5, completion: 5, cache: 0.1, creation: 1.25 };
/** A plain Claude name the adapter maps to its Bedrock id. */
export const HAIKU = 'claude-3-5-haiku-20241022';
const models = [
  HAIKU,
  'claude-b-cache',
  'claude-b-midfail',
  'claude-b-429',
  'claude-b-403',
  'claude-b-badkey',
  'claude-b-nokey',
  'nova-b',
  'llama-b-cache',
  'claude-b-auto',
];

/**
 * A relay with Bedrock channels on the fake Bedrock: the main channel (Claude names mapped to
 * Bedrock ids with the fake's behaviour tokens, Nova and Llama over Converse), one whose secret
 * is wrong, one whose key is not in AK|SK|region form.
 */
export async function startBedrockSetup() {
  const h = await startRelayHarness();
  const fake = await startFakeBedrock();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'claude-b-cache': R.cache, 'llama-b-cache': R.cache }),
    CacheCreationRatio: JSON.stringify({ 'claude-b-cache': R.creation, 'llama-b-cache': R.creation }),
    'claude.model_headers_settings': JSON.stringify({ [HAIKU]: { 'anthropic-beta': ['b1'] } }),
    AutomaticDisableChannelEnabled: 'true',
  });
  const mainChannel = await insertChannel(h.deps, {
    type: 33,
    key: `AKIAFAKE|${FAKE_BEDROCK_SECRET}|us-east-1`,
    baseUrl: fake.url,
    models: models.filter((m) => !['claude-b-badkey', 'claude-b-nokey', 'claude-b-auto'].includes(m)),
    modelMapping: {
      'claude-b-cache': 'anthropic.claude-b-v1:0+cache-40+cachew-12',
      'claude-b-midfail': 'anthropic.claude-b-midfail-v1:0',
      'claude-b-429': 'anthropic.claude-b-v1:0+fail-429',
      'claude-b-403': 'anthropic.claude-b-v1:0+fail-403',
      'nova-b': 'amazon.nova-lite-v1:0',
      'llama-b-cache': 'meta.llama3-70b-instruct-v1:0+cache-30+cachew-6',
    },
  });
  const badKeyChannel = await insertChannel(h.deps, {
    type: 33,
    key: 'AKIAFAKE|not-the-secret|us-east-1',
    baseUrl: fake.url,
    models: ['claude-b-badkey'],
  });
  await insertChannel(h.deps, { type: 33, key: 'sk-not-aws', baseUrl: fake.url, models: ['claude-b-nokey'] });
  // Automatic cache breakpoints are off on Bedrock unless the operator turns them on (shared/channel-cache.ts).
  await insertChannel(h.deps, {
    type: 33,
    key: `AKIAFAKE|${FAKE_BEDROCK_SECRET}|us-east-1`,
    baseUrl: fake.url,
    models: ['claude-b-auto'],
    modelMapping: { 'claude-b-auto': 'anthropic.claude-3-5-haiku-20241022-v1:0' },
    setting: { auto_cache_control: true },
  });
  return { h, fake, mainChannel, badKeyChannel };
}

export const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

export const anthropicClient = (h: RelayHarness, key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });

/** A streamed chat with the usage chunk asked for: the text and the usage the client saw. */
export async function streamedText(h: RelayHarness, key: string, model: string) {
  const stream = await h.client(key).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hello' }],
    max_tokens: 100,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  for await (const c of stream) {
    text += c.choices[0]?.delta?.content ?? '';
    if (c.usage) usage = c.usage;
  }
  return { text, usage };
}

/** The first tool call of a streamed chat, put together from its deltas, and the finish reason. */
export async function streamedToolCall(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let id = '';
  let name = '';
  let args = '';
  let finish: string | null | undefined;
  for await (const c of stream) {
    const call = c.choices[0]?.delta?.tool_calls?.[0];
    id ||= call?.id ?? '';
    name ||= call?.function?.name ?? '';
    args += call?.function?.arguments ?? '';
    finish = c.choices[0]?.finish_reason ?? finish;
  }
  return { id, name, args, finish };
}
