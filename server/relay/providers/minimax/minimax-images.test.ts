import { GoogleGenAI } from '@google/genai';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import {
  FAKE_MINIMAX_KEY,
  type FakeMiniMaxImages,
  startFakeMiniMaxImages,
} from '../../../../scripts/fake-upstream/images/minimax.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * MiniMax image-01 on a MiniMax channel (type 35, issue 44) through the official `openai` SDK against
 * the strict MiniMax image fake: MiniMax's own `n`, sizes as exact width/height or the nearest ratio,
 * links or base64, a subject reference passed on, refusals MiniMax answers with HTTP 200 turned into
 * real statuses, pictures that failed review left unbilled, and edits refused (MiniMax has none).
 */

const MODEL = 'image-01';
const PRICE = { [MODEL]: 0.025, 'minimax-bad-key': 0.025 };
const perImage = (n = 1) => Math.round(0.025 * 500_000) * n;

let h: RelayHarness;
let fake: FakeMiniMaxImages;

const png = (b64: string) => Buffer.from(b64, 'base64');
const sizeOf = (b: Buffer) => [b.readUInt32BE(16), b.readUInt32BE(20)];
const failure = (p: Promise<unknown>) => p.catch((e: { status?: number; message?: string }) => e);

/** A Gemini API client (@google/genai) on the gateway: generateContent on an image model. */
const gemini = (key: string) =>
  new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
/** The inline pictures of a Gemini answer. */
const inlinePictures = (r: { candidates?: { content?: { parts?: { inlineData?: { data?: string } }[] } }[] }) =>
  (r.candidates ?? [])
    .flatMap((c) => c.content?.parts ?? [])
    .filter((x) => x.inlineData?.data)
    .map((x) => Buffer.from(x.inlineData!.data!, 'base64'));

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeMiniMaxImages();
  await setOptions(h.deps, { ModelPrice: JSON.stringify(PRICE) });
  const ch = { type: ChannelType.MiniMax, key: FAKE_MINIMAX_KEY, baseUrl: fake.url };
  await insertChannel(h.deps, { ...ch, name: 'minimax', models: [MODEL] });
  await insertChannel(h.deps, {
    ...ch,
    name: 'minimax-bad-key',
    key: 'not-a-minimax-key',
    models: ['minimax-bad-key'],
    modelMapping: { 'minimax-bad-key': MODEL },
    autoBan: false,
  });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('MiniMax image-01 on a MiniMax channel', () => {
  it('one picture at an exact size: width and height sent, the public link passed on', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({ model: MODEL, prompt: 'a lighthouse', size: '1024x1536' });
    const call = fake.requests.slice(before)[0];
    expect(call.path).toBe('/v1/image_generation');
    expect(call.headers.authorization).toBe(`Bearer ${FAKE_MINIMAX_KEY}`);
    expect(call.body).toEqual({
      model: MODEL,
      prompt: 'a lighthouse',
      width: 1024,
      height: 1536,
      response_format: 'url',
    });
    const bytes = Buffer.from(await (await fetch(r.data![0].url!)).arrayBuffer());
    expect(labelOf(bytes)).toMatch(/^minimax:a lighthouse:/);
    expect(sizeOf(bytes)).toEqual([1024, 1536]);
    expect(await p.charges()).toEqual([perImage()]);
  });

  it("n = 4 is MiniMax's own n in one call: four different base64 pictures, billed four", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: MODEL, prompt: 'four seasons', n: 4, size: '1280x720', response_format: 'b64_json' });
    const calls = fake.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ n: 4, width: 1280, height: 720, response_format: 'base64' });
    const pictures = r.data!.map((d) => png(d.b64_json!));
    expect(new Set(pictures.map(labelOf)).size).toBe(4);
    expect(sizeOf(pictures[0])).toEqual([1280, 720]);
    expect(await p.charges()).toEqual([perImage(4)]);
  });

  it('a size MiniMax cannot make exactly becomes its nearest ratio; a subject reference is passed on', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const ref = `data:image/png;base64,${fakePng(16, 16, 'the-hero').toString('base64')}`;
    await h.client(p.key).images.generate({
      model: MODEL,
      prompt: 'the hero at the beach',
      size: '1000x562' as '1024x1024',
      ...({ subject_reference: [{ type: 'character', image_file: ref }] } as object),
    });
    const call = fake.requests.slice(before)[0];
    expect(call.body).toMatchObject({ aspect_ratio: '16:9' });
    expect(call.body).not.toHaveProperty('width');
    expect(call.referenceLabel).toBe('the-hero');
    expect(await p.charges()).toEqual([perImage()]);
  });

  it('pictures that fail review are not billed; when all fail, or the prompt is refused, the client gets a 400', async () => {
    const p = await payer(h);
    const some = await h.client(p.key).images.generate({ model: MODEL, prompt: 'censor-one of these', n: 3 });
    expect(some.data).toHaveLength(2);
    const all = await failure(h.client(p.key).images.generate({ model: MODEL, prompt: 'censor-all', n: 2 }));
    expect(all).toMatchObject({ status: 400 });
    expect((all as Error).message).toContain('output new_sensitive (1027)');
    const input = await failure(h.client(p.key).images.generate({ model: MODEL, prompt: 'sensitive' }));
    expect(input).toMatchObject({ status: 400 });
    expect((input as Error).message).toContain('(1026)');
    expect(await p.charges()).toEqual([perImage(2)]);
    const rows = await p.logs();
    expect(JSON.parse(rows[0].other ?? '{}')).toMatchObject({ image_count: 2 });
  });

  it('a key MiniMax refuses (1004 with HTTP 200) is a 401 to the client, without the key; nothing is charged', async () => {
    const p = await payer(h);
    const e = await failure(h.client(p.key).images.generate({ model: 'minimax-bad-key', prompt: 'a cat' }));
    expect(e).toMatchObject({ status: 401 });
    expect((e as Error).message).toContain('(1004)');
    expect((e as Error).message).not.toContain('not-a-minimax-key');
    expect(await p.charges()).toEqual([]);
  });

  it('an edit, and n above 9, are refused with a clear 400 before any MiniMax call', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const input = await toFile(fakePng(32, 32, 'x'), 'x.png', { type: 'image/png' });
    const edit = await failure(h.client(p.key).images.edit({ model: MODEL, image: input, prompt: 'add a hat' }));
    expect(edit).toMatchObject({ status: 400 });
    expect((edit as Error).message).toContain('MiniMax does not edit pictures');
    const many = await failure(h.client(p.key).images.generate({ model: MODEL, prompt: 'ten', n: 10 }));
    expect(many).toMatchObject({ status: 400 });
    expect((many as Error).message).toContain('1 to 9 pictures');
    expect(fake.requests.length).toBe(before);
    expect(await p.charges()).toEqual([]);
  });

  it("a Gemini client's 9:16 reaches MiniMax as its aspect_ratio; the picture comes back inline", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await gemini(p.key).models.generateContent({
      model: MODEL,
      contents: 'a tall tower',
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16' } },
    });
    expect(fake.requests.slice(before)[0].body).toMatchObject({
      model: MODEL,
      prompt: 'a tall tower',
      aspect_ratio: '9:16',
    });
    const [pic] = inlinePictures(r);
    expect(sizeOf(pic)).toEqual([720, 1280]);
    expect(JSON.stringify(r)).not.toContain(fake.url);
    expect(await p.charges()).toEqual([perImage()]);
  });
});
