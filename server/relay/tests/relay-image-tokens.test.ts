import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, png } from '../../../test/image-fixtures.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

/*
 * relay.md §5: when the upstream reports no usage, the prompt is counted by the gateway and its
 * images by the tile rule, with the real size of images sent inline.
 */

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'gpt-4o-vision': 1 }),
    CompletionRatio: JSON.stringify({ 'gpt-4o-vision': 4 }),
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['gpt-4o-vision'],
    modelMapping: { 'gpt-4o-vision': 'gpt-4o+no-usage' },
  });
});
afterAll(async () => {
  await h.close();
});

const question = 'What is in this picture?';
/** The relay's own count for gpt-4o without images: 3 primer + 3 for the message + the text. */
const textPrompt = 3 + 3 + countTokens(question);

async function promptTokensFor(image: { url: string; detail?: 'low' | 'high' | 'auto' }) {
  const user = await insertUser(h.deps);
  const token = await insertToken(h.deps, user.id);
  const r = await h.client(token.key).chat.completions.create({
    model: 'gpt-4o-vision',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: question },
          { type: 'image_url', image_url: image },
        ],
      },
    ],
  });
  expect(r.usage).toBeUndefined();
  await h.drain();
  const { logs } = await ledger(h.deps, user.id, token.id);
  expect(logs).toHaveLength(1);
  // 5 content pieces from the fake upstream, counted by the tokenizer ("w0 w1 w2 w3 w4 ").
  expect(logs[0].quota).toBe(logs[0].prompt_tokens + logs[0].completion_tokens * 4);
  return logs[0].prompt_tokens;
}

describe('image tokens in a counted prompt', () => {
  it('a large inline (base64) image is measured: 2048x4096 at high detail is 6 tiles, 1105 tokens', async () => {
    const big = dataUrl('image/png', png(2048, 4096));
    expect(await promptTokensFor({ url: big, detail: 'high' })).toBe(textPrompt + 1105);
    expect(await promptTokensFor({ url: big })).toBe(textPrompt + 1105);
    expect(await promptTokensFor({ url: big, detail: 'low' })).toBe(textPrompt + 85);
  });

  it('a remote image URL is not fetched and counts as one tile, whatever its size', async () => {
    expect(await promptTokensFor({ url: 'https://images.example/huge.png', detail: 'high' })).toBe(textPrompt + 255);
    expect(h.fake.requests.at(-1)!.body.messages).toEqual([
      expect.objectContaining({
        content: expect.arrayContaining([
          { type: 'image_url', image_url: { url: 'https://images.example/huge.png', detail: 'high' } },
        ]),
      }),
    ]);
  });
});
