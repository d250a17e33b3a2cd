import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../scripts/fake-upstream/video/sora.ts';
import type { OptionReader } from '../../../../shared/options.ts';
import type { ChannelConfig } from '../../channel-config.ts';
import { RelayError } from '../../errors.ts';
import type { VideoCall } from '../../tasks/video/types.ts';
import { bytesOf } from '../../tasks/video/tests/adapter-harness.ts';
import { soraVideoAdapter as sora } from './video.ts';

/*
 * The Sora adapter against the strict fake of OpenAI's videos API (issue 40): what it sends, how it
 * reads a job's states, the files with Range, remix, delete, and what it refuses before any call.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
let fake: FakeSora;
let azure: FakeSora;

const channel = (type: number, baseUrl: string) =>
  ({ id: 7, type, name: 'sora', baseUrl, keys: ['sk-sora'], openaiOrganization: '' }) as unknown as ChannelConfig;
const callFor = (type: number, baseUrl: string, upstreamModel = 'sora-2', key = 'sk-sora'): VideoCall => ({
  channel: channel(type, baseUrl),
  key,
  upstreamModel,
  options: {} as OptionReader,
});

beforeAll(async () => {
  fake = await startFakeSora({ key: 'sk-sora', stepMs: STEP });
  azure = await startFakeSora({ key: 'az-key', stepMs: STEP, azure: true });
});
afterAll(async () => {
  await fake.close();
  await azure.close();
});

describe('Sora video adapter (types 55 Sora, 1 OpenAI, 3 Azure)', () => {
  it('submits as JSON, reads queued -> in progress -> completed with the produced seconds and size, and downloads the file with Range', async () => {
    const c = callFor(55, fake.url);
    const { upstreamId, progress } = await sora.submit(c, {
      model: 'sora-2',
      prompt: 'a fox',
      seconds: 8,
      aspectRatio: '16:9',
    });
    expect(progress).toMatchObject({ state: 'queued', progress: 0 });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-sora');
    expect(sent.fields).toEqual({ model: 'sora-2', prompt: 'a fox', seconds: '8', size: '1280x720' });

    fake.advance(STEP * 4);
    expect(await sora.poll(c, upstreamId)).toMatchObject({ state: 'in_progress', progress: 40 });
    fake.advance(STEP * 10);
    expect(await sora.poll(c, upstreamId)).toEqual({ state: 'completed', progress: 100, seconds: 8, size: '1280x720' });

    const whole = await sora.content(c, upstreamId, undefined, 'video');
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const bytes = await bytesOf(whole);
    expect(bytes.equals(fake.contentOf(upstreamId))).toBe(true);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const part = await sora.content(c, upstreamId, undefined, 'video', 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect((await bytesOf(part)).equals(bytes.subarray(100, 200))).toBe(true);

    // Past the end: a 416 file answer naming the length, for the player, not an upstream failure.
    const past = await sora.content(c, upstreamId, undefined, 'video', 'bytes=999999-');
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);

    const thumb = await sora.content(c, upstreamId, undefined, 'thumbnail');
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect((await bytesOf(thumb)).equals(fake.contentOf(upstreamId, 'thumbnail'))).toBe(true);
  });

  it('sends an uploaded first frame as a multipart file and an image URL as input_reference.image_url', async () => {
    const c = callFor(1, fake.url, 'sora-2-pro');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const a = await sora.submit(c, {
      model: 'sora-2-pro',
      prompt: 'p',
      size: '1792x1024',
      firstFrame: { data: png, mime: 'image/png' },
    });
    expect(String(fake.requests.at(-1)!.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(fake.videos.get(a.upstreamId)).toMatchObject({
      model: 'sora-2-pro',
      size: '1792x1024',
      inputReference: { mime: 'image/png' },
    });
    expect(fake.videos.get(a.upstreamId)!.inputReference!.bytes!.equals(png)).toBe(true);

    const b = await sora.submit(c, {
      model: 'sora-2-pro',
      prompt: 'p',
      firstFrame: { url: 'https://img.example/a.png' },
    });
    expect(fake.videos.get(b.upstreamId)!.inputReference).toEqual({ url: 'https://img.example/a.png' });
  });

  it('refuses, saying why, what the videos API cannot carry, before calling it', async () => {
    const c = callFor(55, fake.url);
    const before = fake.requests.length;
    const refused = async (req: Parameters<typeof sora.submit>[1]) => {
      const err = await sora.submit(c, req).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RelayError);
      expect((err as RelayError).status).toBe(400);
      return (err as RelayError).message;
    };
    expect(await refused({ model: 'sora-2', prompt: 'p', seconds: 7 })).toMatch(/4, 8 or 12 seconds, not 7/);
    expect(await refused({ model: 'sora-2', prompt: 'p', lastFrame: { url: 'https://x/y.png' } })).toMatch(
      /no last frame/,
    );
    expect(await refused({ model: 'sora-2', prompt: 'p', size: '1792x1024' })).toMatch(
      /720x1280, 1280x720 pixels, not 1792x1024/,
    );
    expect(await refused({ model: 'sora-2', prompt: 'p', aspectRatio: '1:1' })).toMatch(/9:16 or 16:9, not 1:1/);
    expect(await refused({ model: 'sora-2', prompt: 'p', negativePrompt: 'blur' })).toMatch(/no negative prompt/);
    expect(fake.requests.length).toBe(before);
  });

  it("reports a failed job with the upstream's reason, passes moderation refusals on, and hides a rejected key", async () => {
    const c = callFor(55, fake.url);
    const { upstreamId } = await sora.submit(c, { model: 'sora-2', prompt: 'please FAIL' });
    fake.advance(STEP * 5);
    const p = await sora.poll(c, upstreamId);
    expect(p.state).toBe('failed');
    expect(p.failReason).toMatch(/asked the fake to fail/);

    const blocked = (await sora
      .submit(c, { model: 'sora-2', prompt: 'BLOCKED scene' })
      .catch((e: unknown) => e)) as RelayError;
    expect(blocked.status).toBe(400);
    expect(blocked.code).toBe('moderation_blocked');

    const wrong = (await sora
      .submit(callFor(55, fake.url, 'sora-2', 'sk-wrong-key-1234'), { model: 'sora-2', prompt: 'p' })
      .catch((e: unknown) => e)) as RelayError;
    expect(wrong.status).toBe(502);
    expect(wrong.message).toBe('Channel #7 rejected its API key (HTTP 401)');
    expect(wrong.message).not.toContain('1234');
  });

  it('remixes a completed job and deletes it; a job still running cannot be deleted', async () => {
    const c = callFor(55, fake.url);
    const { upstreamId } = await sora.submit(c, { model: 'sora-2', prompt: 'origin' });
    const early = (await sora.remix!(c, upstreamId, 'again').catch((e: unknown) => e)) as RelayError;
    expect(early.status).toBe(400);
    expect(early.message).toMatch(/only completed videos can be remixed/);
    fake.advance(STEP * 11);
    const r = await sora.remix!(c, upstreamId, 'now at night');
    expect(fake.videos.get(r.upstreamId)).toMatchObject({ remixedFrom: upstreamId, prompt: 'now at night' });
    expect(r.progress?.state).toBe('queued');

    await expect(sora.remove!(c, r.upstreamId)).rejects.toMatchObject({ status: 400 });
    await sora.remove!(c, upstreamId);
    await expect(sora.poll(c, upstreamId)).rejects.toMatchObject({ status: 404 });
    // Deleting what is already gone is not an error.
    await sora.remove!(c, upstreamId);
  });

  it('speaks Azure OpenAI v1 on type 3: /openai/v1/videos with an api-key header', async () => {
    const c = callFor(3, azure.url, 'sora-2', 'az-key');
    const { upstreamId } = await sora.submit(c, { model: 'sora-2', prompt: 'azure fox' });
    const sent = azure.requests.at(-1)!;
    expect(sent.path).toBe('/openai/v1/videos');
    expect(sent.headers['api-key']).toBe('az-key');
    expect(sent.headers.authorization).toBeUndefined();
    azure.advance(STEP * 11);
    expect((await sora.poll(c, upstreamId)).state).toBe('completed');
    const wrong = (await sora
      .poll(callFor(3, azure.url, 'sora-2', 'nope'), upstreamId)
      .catch((e: unknown) => e)) as RelayError;
    expect(wrong.status).toBe(502);
  });
});
