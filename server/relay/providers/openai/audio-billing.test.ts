import { describe, expect, it } from 'vitest';
import {
  type OptionKey,
  type OptionReader,
  optionRegistry,
  type OptionValue,
  parseOption,
} from '../../../../shared/options.ts';
import { computeQuota, resolvePrice } from '../../../domains/billing/pricing.rules.ts';
import { parseOpenAIUsage } from '../openai/usage.ts';
import type { RelayPrincipal } from '../../principal.ts';
import { buildConsumeLog } from '../../relay-log.ts';

function reader(raw: Partial<Record<OptionKey, string>>): OptionReader {
  return (<K extends OptionKey>(key: K): OptionValue<K> => {
    const r = parseOption(key, raw[key] ?? optionRegistry[key].default);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  }) as OptionReader;
}

const opts = reader({
  ModelRatio: JSON.stringify({ 'gpt-4o-audio-preview': 1.25, 'gpt-4o': 1.25 }),
  CompletionRatio: JSON.stringify({ 'gpt-4o-audio-preview': 4, 'gpt-4o': 4 }),
  AudioRatio: JSON.stringify({ 'gpt-4o-audio-preview': 16 }),
  AudioCompletionRatio: JSON.stringify({ 'gpt-4o-audio-preview': 2 }),
});

describe('audio ratios (relay.md §5)', () => {
  const usage = parseOpenAIUsage({
    prompt_tokens: 1000,
    completion_tokens: 500,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 400 },
    completion_tokens_details: { audio_tokens: 300 },
  })!;

  it('reads audio tokens from OpenAI usage details', () => {
    expect(usage).toMatchObject({
      promptTokens: 1000,
      completionTokens: 500,
      audioPromptTokens: 400,
      audioCompletionTokens: 300,
    });
  });

  it('prices audio tokens by AudioRatio and AudioCompletionRatio, text tokens as usual', () => {
    const r = resolvePrice(opts, 'gpt-4o-audio-preview', 'default', false);
    if (!r.ok) throw new Error(r.message);
    // (600 text in + 400*16 audio in + 200*4 text out + 300*16*2 audio out) * 1.25 = (600 + 6400 + 800 + 9600) * 1.25
    expect(computeQuota(r.price, usage)).toBe(21750);
  });

  it('models without an AudioRatio count audio tokens as text', () => {
    const r = resolvePrice(opts, 'gpt-4o', 'default', false);
    if (!r.ok) throw new Error(r.message);
    expect(computeQuota(r.price, usage)).toBe((1000 + 500 * 4) * 1.25);
  });

  it('writes the audio and text parts into the log row (the log details show them)', () => {
    const r = resolvePrice(opts, 'gpt-4o-audio-preview', 'default', false);
    if (!r.ok) throw new Error(r.message);
    const row = buildConsumeLog({
      principal: {
        user: { id: 7, username: 'alice', showIpInLogs: false },
        token: { id: 3, name: 'voice' },
        group: 'default',
      } as unknown as RelayPrincipal,
      model: 'gpt-4o-audio-preview',
      channelId: 1,
      quota: computeQuota(r.price, usage),
      shortfall: 0,
      usage,
      usageCounted: false,
      price: r.price,
      startedAtMs: Date.now() - 500,
      isStream: false,
      ip: '127.0.0.1',
      requestId: 'req',
      frtMs: 100,
      mapped: false,
      upstreamModel: 'gpt-4o-audio-preview',
      channelChain: [1],
      clientAborted: false,
    });
    expect(JSON.parse(row.other ?? '{}')).toMatchObject({
      audio: true,
      audio_input: 400,
      audio_output: 300,
      text_input: 600,
      text_output: 200,
      audio_ratio: 16,
      audio_completion_ratio: 2,
    });
    expect(row.quota).toBe(21750);
  });
});
