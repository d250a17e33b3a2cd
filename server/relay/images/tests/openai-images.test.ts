import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { type FakeOpenAIImages, startFakeOpenAIImages } from '../../../../scripts/fake-upstream/images/openai.ts';
import { signImageLink } from '../delivery.ts';
import { LogType } from '../../../../shared/constants.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../../test/relay-fixtures.ts';

/*
 * OpenAI's images API through the gateway with the official SDK (issue 44), against the strict
 * OpenAI images fake: pictures as asked (b64_json, the upstream's public links, the gateway's own
 * links), the per-picture charge at OpenAI's size and quality ratios, token billing from gpt-image's
 * usage, nothing charged for a failure, failover, and budgets under concurrency. Every charge is
 * checked against the wallet, the token and the log rows (provider-fixtures `payer`).
 */

let h: RelayHarness;
let up: FakeOpenAIImages;
const PER_UNIT = 500_000;
const PRICE = { 'dall-e-2': 0.02, 'dall-e-3': 0.04, 'gpt-image-1': 0.042, 'dall-e-2-fo': 0.02 };
const perImage = (usd: number, n = 1, mult = 1) => Math.round(usd * PER_UNIT * n * mult);
const TOK = { model: 2.5, completion: 4 };

beforeAll(async () => {
  h = await startRelayHarness();
  up = await startFakeOpenAIImages();
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(PRICE),
    ModelRatio: JSON.stringify({ 'gpt-image-tok': TOK.model }),
    CompletionRatio: JSON.stringify({ 'gpt-image-tok': TOK.completion }),
  });
  await insertChannel(h.deps, {
    key: 'sk-images',
    baseUrl: up.url,
    models: ['dall-e-2', 'dall-e-3', 'gpt-image-1', 'gpt-image-tok'],
    modelMapping: { 'gpt-image-tok': 'gpt-image-1' },
  });
  // Failover: a channel answering 500 first (higher priority), then the strict fake.
  await insertChannel(h.deps, { key: 'sk-fail-500', baseUrl: h.fake.url, models: ['dall-e-2-fo'], priority: 10 });
  await insertChannel(h.deps, {
    key: 'sk-images',
    baseUrl: up.url,
    models: ['dall-e-2-fo'],
    modelMapping: { 'dall-e-2-fo': 'dall-e-2' },
  });
});
afterAll(async () => {
  await h?.close();
  await up?.close();
});

const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64');
const pngSize = (png: Buffer) => ({ w: png.readUInt32BE(16), h: png.readUInt32BE(20) });

async function imageLogOther(p: Awaited<ReturnType<typeof payer>>) {
  const logs = await p.logs();
  return JSON.parse(logs.at(-1)!.other) as Record<string, unknown>;
}

async function errorRows(userId: number) {
  await h.drain();
  return h.deps.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', LogType.Error)
    .execute();
}

describe('images.generate', () => {
  it('dall-e-2, no response_format: the upstream public link passes through; one picture charged ModelPrice', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({ model: 'dall-e-2', prompt: 'a red fox' });
    expect(r.data).toHaveLength(1);
    expect(r.data![0].url).toMatch(new RegExp(`^${up.url}/files/`));
    const png = Buffer.from(await (await fetch(r.data![0].url!)).arrayBuffer());
    expect(labelOf(png)).toBe('dall-e-2#0');
    expect(await p.charges()).toEqual([perImage(0.02)]);
    const other = await imageLogOther(p);
    expect(other.image_count).toBe(1);
  });

  it('n = 4 at 512x512 as b64_json: four different 512 px pictures, charged 4 x 0.9 (OpenAI: $0.018 vs $0.020)', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({
      model: 'dall-e-2',
      prompt: 'four foxes',
      n: 4,
      size: '512x512',
      response_format: 'b64_json',
    });
    const pngs = r.data!.map((d) => decode(d.b64_json));
    expect(pngs.map(labelOf)).toEqual(['dall-e-2#0', 'dall-e-2#1', 'dall-e-2#2', 'dall-e-2#3']);
    expect(pngs.map(pngSize)).toEqual(Array(4).fill({ w: 512, h: 512 }));
    expect(await p.charges()).toEqual([perImage(0.02, 4, 0.9)]);
    const other = await imageLogOther(p);
    expect(other).toMatchObject({ image_count: 4, image_size: '512x512', model_price: 0.02 });
  });

  it('dall-e-3 hd 1792x1024 costs 3 standard squares ($0.120 vs $0.040); its n = 2 is refused upstream and free', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.images.generate({
      model: 'dall-e-3',
      prompt: 'a wide harbour',
      size: '1792x1024',
      quality: 'hd',
      response_format: 'b64_json',
    });
    expect(pngSize(decode(r.data![0].b64_json))).toEqual({ w: 1792, h: 1024 });
    expect(r.data![0].revised_prompt).toBe('a wide harbour');
    const err = await c.images.generate({ model: 'dall-e-3', prompt: 'two', n: 2 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(String((err as Error).message)).toContain("Invalid 'n'");
    expect(await p.charges()).toEqual([perImage(0.04, 1, 3)]);
    expect(await imageLogOther(p)).toMatchObject({
      image_count: 1,
      image_size: '1792x1024',
      image_quality: 'hd',
      image_ratio: 3,
    });
  });

  it('gpt-image-1 high 1536x1024 (a ModelPrice): 0.25/0.042 of the price, and the upstream never sees response_format', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({
      model: 'gpt-image-1',
      prompt: 'a poster',
      size: '1536x1024',
      quality: 'high',
      response_format: 'b64_json',
    });
    expect(labelOf(decode(r.data![0].b64_json))).toBe('gpt-image-1#0');
    expect(up.state.seen.at(-1)!.fields).not.toHaveProperty('response_format');
    expect(await p.charges()).toEqual([perImage(0.042, 1, 0.25 / 0.042)]);
  });

  it('a token-priced model pays the tokens gpt-image reports (input and output, completion ratio)', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .images.generate({ model: 'gpt-image-tok', prompt: 'a lighthouse', n: 2, quality: 'low' });
    expect(r.data).toHaveLength(2);
    const usage = (r as unknown as { usage: { input_tokens: number; output_tokens: number } }).usage;
    expect(usage.output_tokens).toBe(2 * 272);
    const charged = quotaOf({ prompt: usage.input_tokens, completion: usage.output_tokens }, TOK);
    expect(await p.charges()).toEqual([charged]);
    const log = (await p.logs()).at(-1)!;
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.input_tokens, usage.output_tokens]);
    expect(JSON.parse(log.other)).toMatchObject({ image_count: 2, image_quality: 'low', model_ratio: TOK.model });
  });
});

describe('gateway links (response_format url on a base64-only model)', () => {
  it('the link opens without a key by its signature and with a key of the same user; never for another user or a forged or expired link', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({ model: 'gpt-image-1', prompt: 'a link', response_format: 'url' });
    const link = r.data![0].url!;
    expect(r.data![0].b64_json).toBeUndefined();
    const origin = h.baseURL.replace(/\/v1$/, '');
    expect(link.startsWith(`${origin}/v1/images/files/`)).toBe(true);
    expect(link).not.toContain(up.url);
    expect(JSON.stringify(r)).not.toContain('sk-images');

    const signed = await fetch(link);
    expect(signed.status).toBe(200);
    expect(signed.headers.get('content-type')).toBe('image/png');
    expect(labelOf(Buffer.from(await signed.arrayBuffer()))).toBe('gpt-image-1#0');

    const bare = link.split('?')[0];
    expect((await fetch(bare)).status).toBe(401);
    const mine = await fetch(bare, { headers: { authorization: `Bearer ${p.key}` } });
    expect(mine.status).toBe(200);
    const other = await payer(h);
    const theirs = await fetch(bare, {
      headers: { authorization: `Bearer ${other.key}`, 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { error: { message: string } }).error.message).toContain('image');

    const u = new URL(link);
    const forged = new URL(link);
    forged.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect((await fetch(forged)).status).toBe(403);
    // A link signed by the gateway whose hour is over: the picture is gone for it.
    const id = /files\/([\w-]+)\./.exec(bare)![1];
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = `${bare}?expires=${past}&sig=${signImageLink(h.deps.config.sessionSecret, id, past)}`;
    expect((await fetch(expired)).status).toBe(404);
  });
});

describe('images.edit', () => {
  it('dall-e-2 with a file and a mask, n = 3: three pictures of the edited input, charged 3 pictures', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.edit({
      model: 'dall-e-2',
      prompt: 'add a hat',
      n: 3,
      size: '256x256',
      response_format: 'b64_json',
      image: await toFile(fakePng(64, 64, 'cat'), 'cat.png', { type: 'image/png' }),
      mask: await toFile(fakePng(64, 64, 'mask'), 'mask.png', { type: 'image/png' }),
    });
    expect(r.data!.map((d) => labelOf(decode(d.b64_json)))).toEqual([
      'dall-e-2:edit(cat)#0',
      'dall-e-2:edit(cat)#1',
      'dall-e-2:edit(cat)#2',
    ]);
    expect(await p.charges()).toEqual([perImage(0.02, 3, 0.8)]);
    expect(await imageLogOther(p)).toMatchObject({ image_count: 3, image_size: '256x256' });
  });

  it('gpt-image-1 with two input images (image[]) answers base64 built from both', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.edit({
      model: 'gpt-image-1',
      prompt: 'put them together',
      image: [
        await toFile(fakePng(32, 48, 'left'), 'a.png', { type: 'image/png' }),
        await toFile(fakePng(32, 48, 'right'), 'b.png', { type: 'image/png' }),
      ],
    });
    expect(labelOf(decode(r.data![0].b64_json))).toBe('gpt-image-1:edit(left+right)#0');
    expect(await p.charges()).toEqual([perImage(0.042)]);
  });

  it("new-api's console form with n=NaN and a blank size: read as absent, one picture", async () => {
    const p = await payer(h);
    const form = new FormData();
    form.append('model', 'dall-e-2');
    form.append('prompt', 'blank fields');
    form.append('n', 'NaN');
    form.append('size', '');
    form.append('response_format', 'null');
    form.append('image', new Blob([new Uint8Array(fakePng(16, 16, 'src'))], { type: 'image/png' }), 'src.png');
    const res = await fetch(`${h.baseURL}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { url?: string }[] };
    expect(body.data).toHaveLength(1);
    expect(up.state.seen.at(-1)!.fields).toEqual({ model: 'dall-e-2', prompt: 'blank fields' });
    expect(await p.charges()).toEqual([perImage(0.02)]);
  });

  it('an edit without a prompt is refused before any upstream call', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .images.edit({
        model: 'dall-e-2',
        prompt: '',
        image: await toFile(fakePng(8, 8), 'a.png', { type: 'image/png' }),
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(await p.charges()).toEqual([]);
  });
});

describe('failures charge nothing', () => {
  it('a 500 fails over to the next channel; a 500 on every channel is an error with nothing charged', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.images.generate({ model: 'dall-e-2-fo', prompt: 'second channel', response_format: 'b64_json' });
    expect(labelOf(decode(r.data![0].b64_json))).toBe('dall-e-2#0');
    const err = await c.images
      .generate({ model: 'dall-e-2-fo', prompt: 'fail500 everywhere' })
      .catch((e: unknown) => e);
    expect((err as { status: number }).status).toBeGreaterThanOrEqual(500);
    expect(await p.charges()).toEqual([perImage(0.02)]);
    expect((await errorRows(p.user.id)).length).toBeGreaterThanOrEqual(1);
  });

  it('a content-policy refusal (400) is passed on and free', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .images.generate({ model: 'dall-e-2', prompt: 'blocked words' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(String((err as Error).message)).toContain('safety system');
    expect(await p.charges()).toEqual([]);
  });

  it('an answer without a picture is a 502, refunded, with an error row', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .images.generate({ model: 'dall-e-3', prompt: 'no-picture please' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502 });
    expect(String((err as Error).message)).toContain('without any image');
    expect(await p.charges()).toEqual([]);
    const l = await ledger(h.deps, p.user.id, p.token.id);
    expect(l.reservations).toEqual([]);
    expect((await errorRows(p.user.id)).map((row) => row.content)).toEqual([
      expect.stringMatching(/without any image|上游未返回任何图片/),
    ]);
  });
});

describe('budgets', () => {
  it('a token with quota for 5 pictures, 10 concurrent calls: exactly 5 pictures made and paid, never below zero', async () => {
    const user = await insertUser(h.deps, { quota: 10_000_000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: perImage(0.02, 5) });
    const c = h.client(token.key);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        c.images.generate({ model: 'dall-e-2', prompt: `budget ${i}`, response_format: 'b64_json' }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(5);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as { status: number }).status).toBeGreaterThanOrEqual(400);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs).toHaveLength(5);
    expect(l.logQuota).toBe(perImage(0.02, 5));
    expect(Number(l.token!.remain_quota)).toBe(0);
    expect(Number(l.user.quota)).toBe(10_000_000 - l.logQuota);
  });

  it('a token with less than one picture left is told what a picture costs, not to lower max_tokens', async () => {
    const user = await insertUser(h.deps, { quota: 10_000_000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: perImage(0.01) });
    const err = await h
      .client(token.key)
      .images.generate({ model: 'dall-e-2', prompt: 'too dear' })
      .then(
        () => ({ status: 200, message: '' }),
        (e: unknown) => e as { status: number; message: string },
      );
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/This request costs .+, but this token has only .+ left; raise the token's quota/);
    expect(err.message).not.toMatch(/max_tokens/);
    const l = await ledger(h.deps, user.id, token.id);
    expect(Number(l.token!.remain_quota)).toBe(perImage(0.01));
  });
});

describe('Azure', () => {
  it('images.generate reaches the deployment path with api-key and api-version', async () => {
    await insertChannel(h.deps, {
      type: 3,
      key: 'sk-azure',
      baseUrl: up.url,
      models: ['dall-e-3-az'],
      modelMapping: { 'dall-e-3-az': 'dall-e-3' },
      other: '2025-04-01-preview',
    });
    await setOptions(h.deps, { ModelPrice: JSON.stringify({ ...PRICE, 'dall-e-3-az': 0.04 }) });
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .images.generate({ model: 'dall-e-3-az', prompt: 'azure', response_format: 'b64_json' });
    expect(labelOf(decode(r.data![0].b64_json))).toBe('dall-e-3#0');
    expect(up.hits.at(-1)).toBe('/openai/deployments/dall-e-3/images/generations');
    expect(await p.charges()).toEqual([perImage(0.04)]);
  });
});
