import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_XAI_KEY, type FakeXai, startFakeXai, XAI_SIZE } from '../../../../scripts/fake-upstream/images/xai.ts';
import { labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * xAI channels (type 48) make grok-2-image pictures through OpenAI's images API, against the strict
 * xAI fake, which refuses OpenAI's size, quality and style as xAI does: the gateway leaves them out,
 * so an OpenAI client's usual call works; links and base64 as asked; xAI's refusals charge nothing.
 */

const PRICE = 0.07;
const perImage = (n: number) => Math.round(PRICE * 500_000 * n);
let h: RelayHarness;
let fake: FakeXai;

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeXai();
  const models = ['grok-2-image-1212', 'grok-gone'];
  await setOptions(h.deps, { ModelPrice: JSON.stringify(Object.fromEntries(models.map((m) => [m, PRICE]))) });
  await insertChannel(h.deps, { type: 48, key: FAKE_XAI_KEY, baseUrl: fake.url, models });
});
afterAll(async () => {
  await fake?.close();
  await h?.close();
});

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
type SdkError = { status?: number; message?: string };

describe('grok-2-image on xAI channels (type 48)', () => {
  it("n = 2 with OpenAI's size, quality and style: xAI gets none of them; two links with xAI's revised prompts, two charged", async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({
      model: 'grok-2-image-1212',
      prompt: 'a cat in space',
      n: 2,
      size: '1024x1024',
      quality: 'hd',
      style: 'vivid',
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_XAI_KEY}`);
    expect(sent.body).toEqual({ model: 'grok-2-image-1212', prompt: 'a cat in space', n: 2 });
    expect(r.data!.map((d) => d.revised_prompt)).toEqual(Array(2).fill('A detailed picture of a cat in space.'));
    const pngs = await Promise.all(r.data!.map(async (d) => Buffer.from(await (await fetch(d.url!)).arrayBuffer())));
    expect(new Set(pngs.map(labelOf)).size).toBe(2);
    expect(await p.charges()).toEqual([perImage(2)]);
    const other = JSON.parse((await p.logs()).at(-1)!.other) as Record<string, unknown>;
    expect(other).toMatchObject({ image_count: 2 });
  });

  it('b64_json is asked of xAI and answered as its pictures', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .images.generate({ model: 'grok-2-image-1212', prompt: 'a dog', response_format: 'b64_json' });
    expect(fake.requests.at(-1)!.body).toEqual({
      model: 'grok-2-image-1212',
      prompt: 'a dog',
      n: 1,
      response_format: 'b64_json',
    });
    expect(pngSize(Buffer.from(r.data![0].b64_json!, 'base64'))).toEqual(XAI_SIZE);
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it("a model xAI does not have is its 404 with xAI's reason, and free", async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'grok-gone', prompt: 'x' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(404);
    expect(err.message).toContain('The model grok-gone does not exist');
    expect(await p.charges()).toEqual([]);
  });
});
