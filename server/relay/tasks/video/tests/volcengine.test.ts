import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { FAKE_ARK_KEY, type FakeArk, startFakeArk } from '../../../../../scripts/fake-upstream/video/ark.ts';
import { type FakeJimeng, startFakeJimeng } from '../../../../../scripts/fake-upstream/video/jimeng.ts';
import { fakeMp4 } from '../../../../../scripts/fake-upstream/video/volc-media.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
} from '../../../../../scripts/fake-upstream/video/volc-signature.ts';
import { videoAdapterFor } from '../adapters.ts';
import type { VideoCall, VideoRequest } from '../types.ts';
import { adapterCall, bytesOf, refusedWith } from './adapter-harness.ts';

/*
 * The Volcengine video upstreams (issue 40): Jimeng (51, V4-signed visual API) and Seedance on Ark
 * (54 Doubao Video, 45 VolcEngine), each adapter against its strict fake over real loopback HTTP.
 */

const STEP_MS = 1000;
const call = adapterCall;

describe('Jimeng video adapter (type 51) against its fake', () => {
  let fake: FakeJimeng;
  const jimeng = videoAdapterFor(ChannelType.Jimeng)!;
  const key = `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`;
  beforeAll(async () => {
    fake = await startFakeJimeng({ stepMs: STEP_MS });
  });
  afterAll(() => fake.close());

  it('signs with the channel AK|SK, moves a job queued -> running -> done and streams the file with Range', async () => {
    const c = call(ChannelType.Jimeng, fake.url, key, 'jimeng_vgfm_t2v_l20');
    const req: VideoRequest = { model: 'jimeng', prompt: 'a red kite over the sea', seconds: 10, size: '1280x720' };
    const { upstreamId } = await jimeng.submit(c, req);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31');
    expect(String(sent.headers.authorization)).toMatch(
      new RegExp(`^HMAC-SHA256 Credential=${FAKE_VOLC_ACCESS_KEY}/\\d{8}/cn-north-1/cv/request, SignedHeaders=`),
    );
    expect(sent.body).toMatchObject({ req_key: 'jimeng_vgfm_t2v_l20', frames: 241, aspect_ratio: '16:9' });
    const task = [...fake.tasks.values()].at(-1)!;

    expect(await jimeng.poll(c, upstreamId)).toMatchObject({ state: 'queued' });
    fake.advance(STEP_MS);
    expect(await jimeng.poll(c, upstreamId)).toMatchObject({ state: 'in_progress' });
    fake.advance(2 * STEP_MS);
    const done = await jimeng.poll(c, upstreamId);
    expect(done).toMatchObject({ state: 'completed', progress: 100, seconds: 10, resolution: '720p' });

    const whole = await jimeng.content(c, upstreamId, done.content, 'video');
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const file = await bytesOf(whole);
    expect(file.equals(fakeMp4(task.id))).toBe(true);
    expect(file.subarray(4, 8).toString()).toBe('ftyp');

    const part = await jimeng.content(c, upstreamId, done.content, 'video', 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${file.length}`);
    expect((await bytesOf(part)).equals(file.subarray(100, 200))).toBe(true);
  });

  it('fetches a fresh URL when the stored one has expired (Jimeng signs its URLs for an hour)', async () => {
    const c = call(ChannelType.Jimeng, fake.url, key, 'jimeng_vgfm_t2v_l20');
    const { upstreamId } = await jimeng.submit(c, { model: 'm', prompt: 'waves' });
    fake.advance(3 * STEP_MS);
    const done = await jimeng.poll(c, upstreamId);
    expect(done.seconds).toBe(5);
    fake.advance(2 * 3600_000);
    const before = fake.downloads.count;
    const f = await jimeng.content(c, upstreamId, done.content, 'video');
    expect(f.status).toBe(200);
    await bytesOf(f);
    expect(fake.downloads.count).toBe(before + 1);
  });

  it('a wrong secret is refused by the fake as SignatureDoesNotMatch, a malformed key before any call', async () => {
    const bad = call(ChannelType.Jimeng, fake.url, `${FAKE_VOLC_ACCESS_KEY}|not-the-secret`, 'jimeng_vgfm_t2v_l20');
    const e = await refusedWith(jimeng.submit(bad, { model: 'm', prompt: 'x' }));
    expect(e.status).toBe(401);
    expect(e.code).toBe('SignatureDoesNotMatch');
    expect(e.message).not.toContain('127.0.0.1');
    const unknownKey = call(ChannelType.Jimeng, fake.url, `AKLTother|${FAKE_VOLC_SECRET_KEY}`, 'jimeng_vgfm_t2v_l20');
    expect((await refusedWith(jimeng.submit(unknownKey, { model: 'm', prompt: 'x' }))).code).toBe('InvalidAccessKey');
    const n = fake.requests.length;
    const malformed = call(ChannelType.Jimeng, fake.url, 'just-one-part', 'jimeng_vgfm_t2v_l20');
    expect((await refusedWith(jimeng.submit(malformed, { model: 'm', prompt: 'x' }))).message).toContain(
      'AccessKeyId|SecretAccessKey',
    );
    expect(fake.requests.length).toBe(n);
  });

  it('refuses with a 400 what Jimeng cannot make, without calling it', async () => {
    const t2v = call(ChannelType.Jimeng, fake.url, key, 'jimeng_vgfm_t2v_l20');
    const n = fake.requests.length;
    const cases: [VideoRequest, RegExp][] = [
      [{ model: 'm', prompt: 'x', seconds: 7 }, /makes 5 or 10 second videos, not 7/],
      [{ model: 'm', prompt: 'x', size: '1792x1024' }, /aspect ratios .* not 7:4/],
      [{ model: 'm', prompt: 'x', resolution: '1080p' }, /makes 720p videos, not 1080p/],
      [
        { model: 'm', prompt: 'x', firstFrame: { url: 'https://img.example/a.png' } },
        /text-to-video and takes no image/,
      ],
      [{ model: 'm', prompt: 'x', negativePrompt: 'blur' }, /no negative prompt/],
    ];
    for (const [req, why] of cases) {
      const e = await refusedWith(jimeng.submit(t2v, req));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(why);
    }
    const i2v = call(ChannelType.Jimeng, fake.url, key, 'jimeng_vgfm_i2v_l20');
    expect((await refusedWith(jimeng.submit(i2v, { model: 'm', prompt: 'x' }))).message).toMatch(/needs a first frame/);
    const lastOnI2v = {
      model: 'm',
      prompt: 'x',
      firstFrame: { url: 'https://a/1.png' },
      lastFrame: { url: 'https://a/2.png' },
    };
    expect((await refusedWith(jimeng.submit(i2v, lastOnI2v))).message).toMatch(/takes no last frame/);
    expect(fake.requests.length).toBe(n);
  });

  it('maps first and last frames onto the 3.0 req_keys (new-api aliases), uploads as bare base64', async () => {
    const c = call(ChannelType.Jimeng, fake.url, key, 'jimeng_v30');
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await jimeng.submit(c, {
      model: 'm',
      prompt: 'morph',
      firstFrame: { data: png, mime: 'image/png' },
      lastFrame: { url: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      req_key: 'jimeng_i2v_first_tail_v30',
      binary_data_base64: [png.toString('base64'), png.toString('base64')],
    });
    const { upstreamId } = await jimeng.submit(c, {
      model: 'm',
      prompt: 'go',
      firstFrame: { url: 'https://img.example/a.png' },
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      req_key: 'jimeng_i2v_first_v30',
      image_urls: ['https://img.example/a.png'],
    });
    // GetResult asks under the same req_key, or Jimeng would answer not_found.
    expect(await jimeng.poll(c, upstreamId)).toMatchObject({ state: 'queued' });
  });

  it('a failed, refused, expired or throttled job reads as Jimeng said it', async () => {
    const c = call(ChannelType.Jimeng, fake.url, key, 'jimeng_vgfm_t2v_l20');
    const risky = await refusedWith(jimeng.submit(c, { model: 'm', prompt: 'a risk' }));
    expect([risky.status, risky.code]).toEqual([400, '50412']);
    const { upstreamId } = await jimeng.submit(c, { model: 'm', prompt: 'please fail' });
    fake.advance(3 * STEP_MS);
    expect(await jimeng.poll(c, upstreamId)).toMatchObject({
      state: 'failed',
      failReason: 'Post Video Risk Not Pass (50511)',
    });
    const second = await jimeng.submit(c, { model: 'm', prompt: 'fine' });
    fake.expire(second.upstreamId.split('/')[2]);
    expect(await jimeng.poll(c, second.upstreamId)).toMatchObject({ state: 'failed', failReason: /expired/ });
    fake.throttleNext();
    const limited = await refusedWith(jimeng.submit(c, { model: 'm', prompt: 'fine' }));
    expect([limited.status, limited.code]).toEqual([429, '50429']);
  });
});

describe('Seedance video adapter (types 54 and 45) against the Ark fake', () => {
  let fake: FakeArk;
  const seedance = videoAdapterFor(ChannelType.DoubaoVideo)!;
  beforeAll(async () => {
    fake = await startFakeArk({ stepMs: STEP_MS });
  });
  afterAll(() => fake.close());

  it('is the adapter of VolcEngine (45) too', () => {
    expect(videoAdapterFor(ChannelType.VolcEngine)).toBe(seedance);
  });

  it('sends the prompt with its commands, settles on the duration and resolution Ark reports, streams with Range', async () => {
    const c = call(ChannelType.DoubaoVideo, fake.url, FAKE_ARK_KEY, 'doubao-seedance-1-0-pro-250528');
    const { upstreamId } = await seedance.submit(c, {
      model: 'seedance',
      prompt: 'a paper boat on a river',
      seconds: 10,
      size: '1280x720',
      seed: 11,
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_ARK_KEY}`);
    expect(sent.body).toEqual({
      model: 'doubao-seedance-1-0-pro-250528',
      content: [{ type: 'text', text: 'a paper boat on a river --rs 720p --ratio 16:9 --dur 10 --seed 11' }],
    });
    expect(await seedance.poll(c, upstreamId)).toMatchObject({ state: 'queued' });
    fake.advance(STEP_MS);
    expect(await seedance.poll(c, upstreamId)).toMatchObject({ state: 'in_progress' });
    fake.advance(2 * STEP_MS);
    const done = await seedance.poll(c, upstreamId);
    expect(done).toMatchObject({ state: 'completed', seconds: 10, resolution: '720p' });
    const file = await bytesOf(await seedance.content(c, upstreamId, done.content, 'video'));
    expect(file.equals(fakeMp4(upstreamId))).toBe(true);
    const tail = await seedance.content(c, upstreamId, done.content, 'video', 'bytes=-16');
    expect(tail.status).toBe(206);
    expect((await bytesOf(tail)).equals(file.subarray(file.length - 16))).toBe(true);
  });

  it('asks for the model default resolution when none is given (pro: 1080p) so the price is known at submit', async () => {
    const c = call(ChannelType.VolcEngine, `${fake.url}/api/v3`, FAKE_ARK_KEY, 'doubao-seedance-1-0-pro-250528');
    const { upstreamId } = await seedance.submit(c, { model: 'm', prompt: 'city at night' });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      content: [{ type: 'text', text: 'city at night --rs 1080p --dur 5' }],
    });
    fake.advance(3 * STEP_MS);
    expect(await seedance.poll(c, upstreamId)).toMatchObject({ state: 'completed', seconds: 5, resolution: '1080p' });
  });

  it('sends first and last frames with their roles, uploaded bytes as data: URLs', async () => {
    const c = call(ChannelType.DoubaoVideo, fake.url, FAKE_ARK_KEY, 'doubao-seedance-1-0-lite-i2v-250428');
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await seedance.submit(c, {
      model: 'm',
      prompt: 'open the door',
      firstFrame: { data: png, mime: 'image/png' },
      lastFrame: { url: 'https://img.example/end.png' },
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      content: [
        { type: 'text' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
          role: 'first_frame',
        },
        { type: 'image_url', image_url: { url: 'https://img.example/end.png' }, role: 'last_frame' },
      ],
    });
  });

  it('a wrong API key is refused by Ark (401 AuthenticationError); what a model cannot make is a 400 before any call', async () => {
    const bad = call(ChannelType.DoubaoVideo, fake.url, 'ark-wrong', 'doubao-seedance-1-0-pro-250528');
    const e = await refusedWith(seedance.submit(bad, { model: 'm', prompt: 'x' }));
    expect([e.status, e.code]).toEqual([401, 'AuthenticationError']);
    const n = fake.requests.length;
    const t2v = call(ChannelType.DoubaoVideo, fake.url, FAKE_ARK_KEY, 'doubao-seedance-1-0-lite-t2v-250428');
    const i2v = call(ChannelType.DoubaoVideo, fake.url, FAKE_ARK_KEY, 'doubao-seedance-1-0-lite-i2v-250428');
    const cases: [VideoCall, VideoRequest, RegExp][] = [
      [t2v, { model: 'm', prompt: 'x', firstFrame: { url: 'https://a/1.png' } }, /text-to-video and takes no image/],
      [i2v, { model: 'm', prompt: 'x' }, /needs a first frame image/],
      [t2v, { model: 'm', prompt: 'x', seconds: 8 }, /makes 5 or 10 second videos, not 8/],
      [t2v, { model: 'm', prompt: 'x', resolution: '4k' }, /not 4k/],
      [t2v, { model: 'm', prompt: 'x', remixOf: 'cgt-1' }, /cannot remix/],
    ];
    for (const [c, req, why] of cases) {
      const err = await refusedWith(seedance.submit(c, req));
      expect(err.status).toBe(400);
      expect(err.message).toMatch(why);
    }
    expect(fake.requests.length).toBe(n);
  });

  it('a failed or cancelled task reads as failed with Ark reason; a sensitive prompt is refused at submit', async () => {
    const c = call(ChannelType.DoubaoVideo, fake.url, FAKE_ARK_KEY, 'doubao-seedance-1-0-lite-t2v-250428');
    const sensitive = await refusedWith(seedance.submit(c, { model: 'm', prompt: 'sensitive stuff' }));
    expect([sensitive.status, sensitive.code]).toEqual([400, 'InputTextSensitiveContentDetected']);
    expect(sensitive.message).not.toMatch(/Request id/);
    const { upstreamId } = await seedance.submit(c, { model: 'm', prompt: 'this will fail' });
    fake.advance(3 * STEP_MS);
    expect(await seedance.poll(c, upstreamId)).toMatchObject({
      state: 'failed',
      failReason: /output video may contain sensitive information \(OutputVideoSensitiveContentDetected\)/,
    });
    const queued = await seedance.submit(c, { model: 'm', prompt: 'cancel me' });
    await seedance.remove!(c, queued.upstreamId);
    expect(await seedance.poll(c, queued.upstreamId)).toMatchObject({ state: 'failed', failReason: /cancelled/ });
  });
});
