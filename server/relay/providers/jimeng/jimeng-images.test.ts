import { GoogleGenAI } from '@google/genai';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
  type FakeJimengImages,
  startFakeJimengImages,
} from '../../../../scripts/fake-upstream/images/jimeng.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Jimeng pictures on a Jimeng channel (type 51, images-only for the relay, issue 44) through the
 * official `openai` SDK against the strict, V4-signature-checking Jimeng image fake: a task submitted
 * and polled to `done` per picture, sizes as width/height or 4.0's area, base64 or Jimeng's links,
 * edits of an uploaded picture, and a refused prompt, a failed task and a wrong secret answered as
 * clear errors charging nothing.
 */

const V40 = 'jimeng_t2i_v40';
const V31 = 'jimeng_t2i_v31';
const I2I = 'jimeng_i2i_v30';
const PRICE = { [V40]: 0.04, [V31]: 0.03, [I2I]: 0.03, 'jimeng-bad-secret': 0.03 };
const perImage = (model: keyof typeof PRICE, n = 1) => Math.round(PRICE[model] * 500_000) * n;
const KEY = `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`;

let h: RelayHarness;
let fake: FakeJimengImages;

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
const submits = (from: number) => fake.requests.slice(from).filter((r) => r.action === 'CVSync2AsyncSubmitTask');

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeJimengImages({ stepMs: 100 });
  await setOptions(h.deps, { ModelPrice: JSON.stringify(PRICE) });
  const ch = { type: ChannelType.Jimeng, key: KEY, baseUrl: fake.url };
  // One channel for its image req_keys and a video model: the relay serves the images.
  await insertChannel(h.deps, { ...ch, name: 'jimeng', models: [V40, V31, I2I, 'jimeng_vgfm_t2v_l20'] });
  await insertChannel(h.deps, {
    ...ch,
    name: 'jimeng-bad-secret',
    key: `${FAKE_VOLC_ACCESS_KEY}|not-the-secret`,
    models: ['jimeng-bad-secret'],
    modelMapping: { 'jimeng-bad-secret': V31 },
    autoBan: false,
  });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('Jimeng images on a Jimeng channel', () => {
  it('generates a picture: a signed task at the asked width and height, polled to done, answered as base64', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: V31, prompt: 'a paper lantern', size: '1024x768', response_format: 'b64_json' });
    const calls = fake.requests.slice(before);
    expect(calls[0].action).toBe('CVSync2AsyncSubmitTask');
    expect(calls[0].body).toEqual({ req_key: V31, prompt: 'a paper lantern', width: 1024, height: 768 });
    expect(String(calls[0].headers.authorization)).toMatch(
      new RegExp(`^HMAC-SHA256 Credential=${FAKE_VOLC_ACCESS_KEY}/\\d{8}/cn-north-1/cv/request`),
    );
    // in_queue, generating, done: polled with the same req_key, asking for base64.
    expect(calls.slice(1).every((c) => c.action === 'CVSync2AsyncGetResult')).toBe(true);
    expect(calls.at(-1)!.body).toMatchObject({ req_key: V31, req_json: JSON.stringify({ return_url: false }) });
    const out = png(r.data![0].b64_json!);
    expect(labelOf(out)).toMatch(new RegExp(`^jimeng:${V31}:a paper lantern:`));
    expect(sizeOf(out)).toEqual([1024, 768]);
    expect(await p.charges()).toEqual([perImage(V31)]);
  });

  it('n = 2 on Jimeng 4.0 is two single-picture tasks; links are asked for and passed on', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: V40, prompt: 'two moons', n: 2, size: '2K' as '1024x1024' });
    expect(submits(before).map((c) => c.body)).toEqual(
      Array(2).fill({ req_key: V40, prompt: 'two moons', size: 2048 * 2048, force_single: true }),
    );
    expect(r.data).toHaveLength(2);
    const bytes = await Promise.all(r.data!.map(async (d) => Buffer.from(await (await fetch(d.url!)).arrayBuffer())));
    expect(new Set(bytes.map(labelOf)).size).toBe(2);
    expect(sizeOf(bytes[0])).toEqual([2048, 2048]);
    expect(await p.charges()).toEqual([perImage(V40, 2)]);
    const [row] = await p.logs();
    expect(JSON.parse(row.other ?? '{}')).toMatchObject({ image_count: 2, image_size: '2K' });
  });

  it('edits an uploaded picture with jimeng_i2i_v30 (sent as bare base64)', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const input = await toFile(fakePng(600, 600, 'jimeng-input'), 'in.png', { type: 'image/png' });
    const r = await h.client(p.key).images.edit({
      model: I2I,
      image: input,
      prompt: 'in ink wash style',
      size: '1024x1024',
      response_format: 'b64_json',
    });
    const sent = submits(before)[0].body;
    expect(sent).toMatchObject({ req_key: I2I, prompt: 'in ink wash style', width: 1024, height: 1024 });
    expect(labelOf(png((sent.binary_data_base64 as string[])[0]))).toBe('jimeng-input');
    expect([...fake.tasks.values()].at(-1)!.inputLabels).toEqual(['jimeng-input']);
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage(I2I)]);
  });

  it('an edit on a text-only req_key and a generation on the edit-only one are clear 400s, with no task', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const input = await toFile(fakePng(32, 32, 'x'), 'x.png', { type: 'image/png' });
    const e1 = await failure(h.client(p.key).images.edit({ model: V31, image: input, prompt: 'x' }));
    expect(e1).toMatchObject({ status: 400 });
    expect((e1 as Error).message).toContain('does not edit pictures');
    const e2 = await failure(h.client(p.key).images.generate({ model: I2I, prompt: 'x' }));
    expect(e2).toMatchObject({ status: 400 });
    expect((e2 as Error).message).toContain('/v1/images/edits');
    expect(fake.requests.length).toBe(before);
    expect(await p.charges()).toEqual([]);
  });

  it("a prompt Jimeng's review refuses, and a task that fails after it was accepted, charge nothing", async () => {
    const p = await payer(h);
    const refused = await failure(h.client(p.key).images.generate({ model: V31, prompt: 'a risk' }));
    expect(refused).toMatchObject({ status: 400 });
    expect((refused as Error).message).toContain('Text Risk Not Pass (50412)');
    const failed = await failure(h.client(p.key).images.generate({ model: V31, prompt: 'this will fail' }));
    expect(failed).toMatchObject({ status: 400 });
    expect((failed as Error).message).toContain('Post Img Risk Not Pass (50511)');
    expect(await p.charges()).toEqual([]);
  });

  it('a client that goes away while the task runs stops the polling and pays nothing', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 450);
    await failure(h.client(p.key).images.generate({ model: V31, prompt: 'a slow sunrise' }, { signal: abort.signal }));
    await new Promise((r) => setTimeout(r, 1500));
    // The submit and the poll at 300 ms only: the next would have come at 800 ms.
    expect(fake.requests.slice(before).map((r) => r.action)).toEqual([
      'CVSync2AsyncSubmitTask',
      'CVSync2AsyncGetResult',
    ]);
    expect(await p.charges()).toEqual([]);
  });

  it('a wrong secret is refused by the signature check: a 401 without the key, nothing charged', async () => {
    const p = await payer(h);
    const e = await failure(h.client(p.key).images.generate({ model: 'jimeng-bad-secret', prompt: 'a cat' }));
    expect(e).toMatchObject({ status: 401 });
    expect((e as Error).message).toContain('SignatureDoesNotMatch');
    expect((e as Error).message).not.toContain('not-the-secret');
    expect((e as Error).message).not.toContain(fake.url);
    expect(await p.charges()).toEqual([]);
  });

  it('a Gemini client sending a picture to jimeng_t2i_v40 gets its edit inline (the picture sent as base64)', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const input = fakePng(1024, 1024, 'gemini-input');
    const r = await gemini(p.key).models.generateContent({
      model: V40,
      contents: [
        {
          role: 'user',
          parts: [{ inlineData: { mimeType: 'image/png', data: input.toString('base64') } }, { text: 'add snow' }],
        },
      ],
    });
    const sent = submits(before)[0].body;
    expect(sent).toMatchObject({ req_key: V40, prompt: 'add snow', force_single: true });
    expect([...fake.tasks.values()].at(-1)!.inputLabels).toEqual(['gemini-input']);
    const pics = inlinePictures(r);
    expect(pics.map(labelOf)).toEqual([expect.stringMatching(new RegExp(`^jimeng:${V40}:add snow:`))]);
    expect(JSON.stringify(r)).not.toContain(fake.url);
    expect(await p.charges()).toEqual([perImage(V40)]);
  });
});
