import { request } from 'node:http';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../../shared/constants.ts';
import {
  FAKE_REPLICATE_KEY,
  type FakeReplicate,
  REPLICATE_MODEL_ERROR,
  REPLICATE_NSFW_ERROR,
  replicateVersionOf,
  startFakeReplicate,
} from '../../../../scripts/fake-upstream/images/replicate.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';
import { setReplicateDeadline } from './images.ts';

/*
 * Replicate channels (type 56) through the gateway with the official OpenAI SDK, against the strict
 * predictions fake: `n` and `size` as Replicate's num_outputs and aspect_ratio, the delivery links
 * passed through or turned into base64, single-output models asked once per picture, a prediction
 * still running after the held wait polled to its end, failures and refusals as clear errors that
 * charge nothing, a departed client's prediction canceled, and the fetched model list.
 */

const PRICE = 0.003;
const PER_UNIT = 500_000;
const perImage = (n: number) => Math.round(PRICE * PER_UNIT * n);
const MODELS = [
  'black-forest-labs/flux-schnell',
  'black-forest-labs/flux-1.1-pro',
  'black-forest-labs/flux-kontext-pro',
  `black-forest-labs/flux-schnell:${replicateVersionOf('black-forest-labs/flux-schnell')}`,
];

let h: RelayHarness;
let fake: FakeReplicate;

beforeAll(async () => {
  h = await startRelayHarness();
  // Replicate holds the answer up to 60 s; here 600 ms, and a `[slow]` prediction runs 1.5 s.
  fake = await startFakeReplicate({ runMs: 200, slowRunMs: 1500, maxWaitMs: 600 });
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(Object.fromEntries([...MODELS, 'flux-bad-key'].map((m) => [m, PRICE]))),
  });
  await insertChannel(h.deps, { type: 56, key: FAKE_REPLICATE_KEY, baseUrl: fake.url, models: MODELS });
  await insertChannel(h.deps, {
    type: 56,
    key: 'r8_revoked',
    baseUrl: fake.url,
    models: ['flux-bad-key'],
    modelMapping: { 'flux-bad-key': 'black-forest-labs/flux-schnell' },
  });
});
afterAll(async () => {
  await fake?.close();
  await h?.close();
});

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const posts = (since: number) => fake.requests.slice(since).filter((r) => r.method === 'POST');
type SdkError = { status?: number; message?: string };

describe('Replicate images (type 56)', () => {
  it('n = 2 at 1792x1024 runs flux-schnell once with num_outputs 2 and aspect 16:9; the public links pass through; two pictures charged', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'two foxes', n: 2, size: '1792x1024' });
    const sent = posts(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_KEY}`);
    expect(sent[0].headers.prefer).toBe('wait');
    expect(sent[0].body).toEqual({ input: { prompt: 'two foxes', num_outputs: 2, aspect_ratio: '16:9' } });
    const urls = r.data!.map((d) => d.url!);
    expect(urls).toHaveLength(2);
    for (const u of urls) expect(u.startsWith(`${fake.url}/replicate.delivery/`)).toBe(true);
    const pngs = await Promise.all(urls.map(download));
    expect(new Set(pngs.map(labelOf)).size).toBe(2);
    expect(pngs.map(pngSize)).toEqual(Array(2).fill({ width: 1360, height: 768 }));
    expect(await p.charges()).toEqual([perImage(2)]);
    const other = JSON.parse((await p.logs()).at(-1)!.other) as Record<string, unknown>;
    expect(other).toMatchObject({ image_count: 2, image_size: '1792x1024' });
  });

  it('a single-output model (flux-1.1-pro) asked for n = 3 as b64_json runs three predictions and answers three different pictures', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({
      model: 'black-forest-labs/flux-1.1-pro',
      prompt: 'a lighthouse',
      n: 3,
      response_format: 'b64_json',
      output_format: 'png',
    });
    expect(posts(before)).toHaveLength(3);
    // flux-1.1-pro has no num_outputs: Replicate drops it, and the prediction keeps the rest.
    expect(posts(before)[0].body).toEqual({ input: { prompt: 'a lighthouse', num_outputs: 3, output_format: 'png' } });
    const pngs = r.data!.map((d) => Buffer.from(d.b64_json!, 'base64'));
    expect(pngs).toHaveLength(3);
    expect(new Set(pngs.map(labelOf)).size).toBe(3);
    expect(pngs.map(pngSize)).toEqual(Array(3).fill({ width: 1024, height: 1024 }));
    expect(await p.charges()).toEqual([perImage(3)]);
  });

  it('a prediction still running after the held wait is polled until it succeeds', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'a slow sunrise [slow]' });
    const calls = fake.requests.slice(before).filter((c) => !c.path.startsWith('/replicate.delivery'));
    expect(calls[0].method).toBe('POST');
    const polls = calls.slice(1);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const c of polls) {
      expect(c.method).toBe('GET');
      expect(c.path).toMatch(/^\/v1\/predictions\/[a-z0-9]+$/);
      expect(c.headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_KEY}`);
    }
    expect(labelOf(await download(r.data![0].url!))).toMatch(/-0$/);
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it('a version id runs through /v1/predictions with {version, input}', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({ model: MODELS[3], prompt: 'a pinned version' });
    expect(posts(before)[0]).toMatchObject({
      path: '/v1/predictions',
      body: { version: MODELS[3], input: { prompt: 'a pinned version' } },
    });
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it('an edit sends the uploaded picture as flux-kontext-pro input_image (a data URI)', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const src = fakePng(64, 48, 'my-photo');
    const r = await h.client(p.key).images.edit({
      model: 'black-forest-labs/flux-kontext-pro',
      prompt: 'make it night',
      image: await toFile(src, 'photo.png', { type: 'image/png' }),
    });
    const input = (posts(before)[0].body as { input: Record<string, unknown> }).input;
    expect(input).toEqual({ prompt: 'make it night', input_image: `data:image/png;base64,${src.toString('base64')}` });
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it("a prediction failed for NSFW content is the client's 400 with Replicate's reason, and free", async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'something [nsfw]' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(400);
    expect(err.message).toContain(REPLICATE_NSFW_ERROR);
    expect(await p.charges()).toEqual([]);
  });

  it("a prediction the model fails is an upstream failure (502) with Replicate's error, and free", async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'crash [fail]' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(502);
    expect(err.message).toContain(REPLICATE_MODEL_ERROR);
    expect(await p.charges()).toEqual([]);
  });

  it('an input Replicate refuses (num_outputs 5 on flux-schnell) answers its validation detail, and is free', async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'five', n: 5 })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(422);
    expect(err.message).toContain('input.num_outputs: Must be less than or equal to 4');
    expect(await p.charges()).toEqual([]);
  });

  it("a revoked token is refused with Replicate's reason, never showing the key; nothing charged", async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'flux-bad-key', prompt: 'x' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(401);
    expect(err.message).toContain('You did not pass a valid authentication token');
    expect(err.message).not.toContain('r8_revoked');
    expect(await p.charges()).toEqual([]);
  });

  it('a client that leaves while the prediction runs gets it canceled on Replicate and pays nothing', async () => {
    const p = await payer(h);
    // A connection of its own, closed mid-wait, as a client process that dies.
    const req = request(`${h.baseURL}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt: 'never seen [slow]' }));
    setTimeout(() => req.destroy(), 900);
    await expect.poll(() => fake.canceled.length, { timeout: 3000 }).toBeGreaterThan(0);
    const id = fake.canceled.at(-1)!;
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === `/v1/predictions/${id}/cancel`)).toBe(true);
    expect(await p.charges()).toEqual([]);
  });

  it('a prediction past the deadline is canceled and answered 504, free', async () => {
    setReplicateDeadline(700);
    try {
      const p = await payer(h);
      const canceled = fake.canceled.length;
      const err = (await h
        .client(p.key)
        .images.generate({ model: 'black-forest-labs/flux-schnell', prompt: 'too slow [slow]' })
        .catch((e: unknown) => e)) as SdkError;
      expect(err.status).toBe(504);
      expect(err.message).toContain('did not finish in time');
      await expect.poll(() => fake.canceled.length, { timeout: 3000 }).toBe(canceled + 1);
      expect(await p.charges()).toEqual([]);
    } finally {
      setReplicateDeadline(300_000);
    }
  });

  it("fetching a Replicate channel's models offers the type's usual image models without asking Replicate", async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const before = fake.requests.length;
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/fetch_models',
      headers: admin,
      payload: { type: 56, base_url: fake.url, key: FAKE_REPLICATE_KEY },
    });
    expect(res.json()).toMatchObject({
      success: true,
      data: expect.arrayContaining(['black-forest-labs/flux-schnell']),
    });
    expect(fake.requests.length).toBe(before);
  });
});
