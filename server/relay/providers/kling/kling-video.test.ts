import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeKling, startFakeKling } from '../../../../scripts/fake-upstream/video/kling.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { adapterCall, bytesOf, refusedWith } from '../../tasks/video/tests/adapter-harness.ts';
import { klingVideoAdapter as kling } from './video.ts';

/*
 * The Kling video adapter against the strict fake of Kling's API (scripts/fake-upstream/video/kling.ts):
 * the JWT it signs from `AK|SK` is accepted and a wrong secret refused; sizes, seconds and modes map
 * onto Kling's fields; what Kling cannot make is refused before any request; the job moves
 * submitted -> processing -> succeed (or failed) and its file opens with Range.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP_MS = 60_000;
let fake: FakeKling;

beforeAll(async () => {
  fake = await startFakeKling({ stepMs: STEP_MS });
});
afterAll(() => fake.close());

const callWith = (key: string) => adapterCall(ChannelType.Kling, fake.url, key, 'kling-v2-1-master');
const good = () => callWith(`${fake.accessKey}|${fake.secretKey}`);
const lastBody = () => fake.requests.at(-1)!.body;

describe('Kling video adapter against the fake', () => {
  it('submits a 10 s 1080p text2video with a JWT Kling accepts, follows it to the end and streams its file with Range', async () => {
    const { upstreamId, progress } = await kling.submit(good(), {
      model: 'kling',
      prompt: 'a red fox in snow',
      negativePrompt: 'blur',
      seconds: 10,
      size: '1920x1080',
      extra: { cfg_scale: 0.7, camera_control: { type: 'simple', config: { zoom: 5 } }, personGeneration: 'x' },
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/videos/text2video');
    expect(sent.body).toEqual({
      model_name: 'kling-v2-1-master',
      prompt: 'a red fox in snow',
      negative_prompt: 'blur',
      mode: 'pro',
      duration: '10',
      aspect_ratio: '16:9',
      cfg_scale: 0.7,
      camera_control: { type: 'simple', config: { zoom: 5 } },
    });
    expect(progress).toMatchObject({ state: 'queued', progress: 0 });
    expect(upstreamId).toMatch(/^text2video:pro:\d+$/);

    fake.advance(2 * STEP_MS);
    expect(await kling.poll(good(), upstreamId)).toMatchObject({ state: 'in_progress' });
    fake.advance(10 * STEP_MS);
    const done = await kling.poll(good(), upstreamId);
    expect(done).toMatchObject({ state: 'completed', progress: 100, seconds: 10, resolution: '1080p' });

    const file = await kling.content(good(), upstreamId, done.content, 'video', 'bytes=0-99');
    expect(file.status).toBe(206);
    expect(file.headers['content-range']).toBe(`bytes 0-99/${fake.mp4.length}`);
    const bytes = await bytesOf(file);
    expect(bytes.length).toBe(100);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('signs one token per key and reuses it; a wrong secret key is refused by Kling as the channel key, not the client', async () => {
    await kling.submit(good(), { model: 'k', prompt: 'one' });
    await kling.submit(good(), { model: 'k', prompt: 'two' });
    const [a, b] = fake.requests.slice(-2).map((r) => r.headers.authorization);
    expect(a).toBe(b);

    const err = await refusedWith(
      kling.submit(callWith(`${fake.accessKey}|not-the-secret`), { model: 'k', prompt: 'x' }),
    );
    expect(err.status).toBe(502);
    expect(err.message).toContain('Kling code 1000');
    expect(err.message).not.toContain('not-the-secret');
    expect(err.message).not.toContain(fake.url);

    const badKey = await refusedWith(kling.submit(callWith('no-separator'), { model: 'k', prompt: 'x' }));
    expect(badKey.status).toBe(400);
    expect(badKey.message).toContain('AccessKey|SecretKey');
  });

  it('sends the first frame as raw base64 and the last frame as a URL to image2video, without an aspect ratio', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const { upstreamId } = await kling.submit(good(), {
      model: 'k',
      prompt: 'the cat jumps',
      resolution: '720p',
      aspectRatio: '9:16',
      firstFrame: { url: `data:image/png;base64,${png.toString('base64')}` },
      lastFrame: { url: 'https://example.com/end.png' },
    });
    expect(fake.requests.at(-1)!.path).toBe('/v1/videos/image2video');
    expect(lastBody()).toEqual({
      model_name: 'kling-v2-1-master',
      prompt: 'the cat jumps',
      mode: 'std',
      duration: '5',
      image: png.toString('base64'),
      image_tail: 'https://example.com/end.png',
    });
    expect(upstreamId).toMatch(/^image2video:std:/);
    fake.advance(20 * STEP_MS);
    expect(await kling.poll(good(), upstreamId)).toMatchObject({ state: 'completed', seconds: 5, resolution: '720p' });
  });

  it('refuses what Kling cannot make with a 400 that says why, before calling Kling', async () => {
    const before = fake.requests.length;
    const cases: [Parameters<typeof kling.submit>[1], string][] = [
      [{ model: 'k', prompt: 'p', seconds: 7 }, '5 or 10 second'],
      [{ model: 'k', prompt: 'p', size: '1792x1024' }, 'cannot make a 1792x1024 video'],
      [{ model: 'k', prompt: 'p', size: '1280x720', aspectRatio: '9:16' }, 'is 16:9, not the aspect ratio 9:16'],
      [{ model: 'k', prompt: 'p', size: '1280x720', resolution: '1080p' }, 'different Kling modes'],
      [{ model: 'k', prompt: 'p', resolution: '480p' }, 'not 480p'],
      [{ model: 'k', prompt: 'p', aspectRatio: '4:3' }, 'not 4:3'],
      [{ model: 'k', prompt: 'p', remixOf: 'x' }, 'cannot remix'],
      [{ model: 'k', prompt: 'p', seed: 3 }, 'no seed'],
      [{ model: 'k', prompt: 'p', firstFrame: { url: 'ftp://x/y.png' } }, 'http(s) URL'],
    ];
    for (const [req, why] of cases) {
      const err = await refusedWith(kling.submit(good(), req));
      expect(err.status, why).toBe(400);
      expect(err.message).toContain(why);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('reports a failed job with Kling’s reason, and a Kling refusal of the body as a 400', async () => {
    const { upstreamId } = await kling.submit(good(), { model: 'k', prompt: 'this one should fail' });
    fake.advance(3 * STEP_MS);
    expect(await kling.poll(good(), upstreamId)).toMatchObject({
      state: 'failed',
      failReason: 'fake failure: the prompt asked to fail',
    });
    const other = await kling.submit(good(), { model: 'k', prompt: 'fine' });
    fake.fail(other.upstreamId.split(':')[2], 'Content policy violation');
    fake.advance(3 * STEP_MS);
    expect(await kling.poll(good(), other.upstreamId)).toMatchObject({
      state: 'failed',
      failReason: 'Content policy violation',
    });
    const err = await refusedWith(kling.submit(good(), { model: 'k', prompt: 'p', extra: { cfg_scale: 3 } }));
    expect(err.status).toBe(400);
    expect(err.message).toContain('cfg_scale');
    expect(err.message).toContain('1201');
  });
});

describe('the Kling fake is strict', () => {
  const sign = (claims: { iss?: string; exp?: number; nbf?: number }, sk = fake.secretKey) => {
    let jwt = new SignJWT(claims.iss ? { iss: claims.iss } : {}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
    if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
    if (claims.nbf !== undefined) jwt = jwt.setNotBefore(claims.nbf);
    return jwt.sign(new TextEncoder().encode(sk));
  };
  const post = async (auth: string | undefined, body: unknown, path = '/v1/videos/text2video') => {
    const res = await fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { code: number; message: string } };
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('answers Kling’s auth codes with HTTP 401', async () => {
    const ak = fake.accessKey;
    const body = { prompt: 'x' };
    expect((await post(undefined, body)).json.code).toBe(1001);
    expect((await post('Bearer not-a-jwt', body)).json.code).toBe(1002);
    expect((await post(`Bearer ${await sign({ iss: ak, exp: now() + 60 })}`, body)).json.code).toBe(1002);
    expect((await post(`Bearer ${await sign({ iss: ak, exp: now() + 60, nbf: now() + 600 })}`, body)).json.code).toBe(
      1003,
    );
    const expired = await post(`Bearer ${await sign({ iss: ak, exp: now() - 60, nbf: now() - 120 })}`, body);
    expect(expired).toMatchObject({ status: 401, json: { code: 1004 } });
    expect((await post(`Bearer ${await sign({ iss: 'other', exp: now() + 60, nbf: now() })}`, body)).json.code).toBe(
      1000,
    );
  });

  it('refuses unknown fields, a numeric duration and a data: URL image with 1201', async () => {
    const auth = `Bearer ${await sign({ iss: fake.accessKey, exp: now() + 60, nbf: now() - 5 })}`;
    const cases: [unknown, string][] = [
      [{ prompt: 'x', seconds: 5 }, '/v1/videos/text2video'],
      [{ prompt: 'x', duration: 5 }, '/v1/videos/text2video'],
      [{ prompt: 'x', duration: '7' }, '/v1/videos/text2video'],
      [{ image: 'data:image/png;base64,iVBORw0KGgo=' }, '/v1/videos/image2video'],
      [{ image: 'https://x/y.png', aspect_ratio: '16:9' }, '/v1/videos/image2video'],
    ];
    for (const [body, path] of cases)
      expect(await post(auth, body, path)).toMatchObject({ status: 400, json: { code: 1201 } });
    expect(await post(auth, { prompt: 'x', duration: '10', mode: 'pro' })).toMatchObject({
      status: 200,
      json: { code: 0 },
    });
  });
});
