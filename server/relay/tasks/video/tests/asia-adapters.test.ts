import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_MP4 } from '../../../../../scripts/fake-upstream/video/shared.ts';
import { type FakeDashScope, startFakeDashScope } from '../../../../../scripts/fake-upstream/video/dashscope.ts';
import { type FakeMiniMax, startFakeMiniMax } from '../../../../../scripts/fake-upstream/video/minimax.ts';
import { type FakeVidu, LINK_TTL_MS, startFakeVidu } from '../../../../../scripts/fake-upstream/video/vidu.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import type { VideoAdapter, VideoCall, VideoProgress } from '../types.ts';
import { adapterCall, bytesOf, refusedWith } from './adapter-harness.ts';
import { aliVideo } from '../../../providers/ali/video.ts';
import { minimaxVideo } from '../../../providers/minimax/video.ts';
import { viduVideo } from '../../../providers/vidu/video.ts';

/*
 * The Vidu (52), Ali Wan (17) and MiniMax Hailuo (35) video adapters against strict fakes of their
 * APIs over real loopback HTTP (issue 40): the body each upstream receives, a job walked to its
 * video, the file read with Range, a failed job's reason, what a model cannot make refused with a
 * 400 before anything is sent, and upstream errors that never show the channel's key or host.
 */

const STEP = 60_000;
let vidu: FakeVidu;
let wan: FakeDashScope;
let hailuo: FakeMiniMax;

beforeAll(async () => {
  [vidu, wan, hailuo] = await Promise.all([
    startFakeVidu({ stepMs: STEP }),
    startFakeDashScope({ stepMs: STEP }),
    startFakeMiniMax({ stepMs: STEP }),
  ]);
});
afterAll(async () => {
  await Promise.all([vidu.close(), wan.close(), hailuo.close()]);
});

/** Polls after each clock step until the job ends; returns every state seen and the last answer. */
async function walk(adapter: VideoAdapter, call: VideoCall, id: string, advance: (ms: number) => void) {
  const seen: string[] = [];
  let last: VideoProgress = await adapter.poll(call, id);
  seen.push(last.state);
  for (let i = 0; i < 8 && last.state !== 'completed' && last.state !== 'failed'; i++) {
    advance(STEP);
    last = await adapter.poll(call, id);
    if (seen.at(-1) !== last.state) seen.push(last.state);
  }
  return { seen, last };
}

/** The finished file in full and a seek into it, as a player asks. */
async function expectPlayableWithRange(adapter: VideoAdapter, call: VideoCall, id: string, stored: VideoProgress) {
  const whole = await adapter.content(call, id, stored.content, 'video');
  expect(whole.status).toBe(200);
  expect(whole.headers['content-type']).toBe('video/mp4');
  const bytes = await bytesOf(whole);
  expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  expect(bytes.equals(FAKE_MP4)).toBe(true);
  const part = await adapter.content(call, id, stored.content, 'video', 'bytes=100-199');
  expect(part.status).toBe(206);
  expect(part.headers['content-range']).toBe(`bytes 100-199/${FAKE_MP4.length}`);
  expect((await bytesOf(part)).equals(FAKE_MP4.subarray(100, 200))).toBe(true);
  // Only a player's headers come through: nothing naming the upstream.
  expect(Object.keys(whole.headers).sort()).toEqual(
    expect.arrayContaining(['accept-ranges', 'content-length', 'content-type']),
  );
  expect(JSON.stringify(whole.headers)).not.toContain('127.0.0.1');
}

describe('Vidu (type 52)', () => {
  const call = (model = 'viduq1', key = vidu?.key) => adapterCall(ChannelType.Vidu, vidu.url, key, model);

  it('text-to-video: Token auth, the model default 5 s at 1080p, created -> queueing -> processing -> success, the file with Range', async () => {
    const before = vidu.requests.length;
    const { upstreamId } = await viduVideo.submit(call(), { model: 'vidu-fast', prompt: 'a cat on a skateboard' });
    const sent = vidu.requests[before];
    expect(sent.path).toBe('/ent/v2/text2video');
    expect(sent.headers.authorization).toBe(`Token ${vidu.key}`);
    expect(sent.body).toMatchObject({
      model: 'viduq1',
      prompt: 'a cat on a skateboard',
      duration: 5,
      resolution: '1080p',
    });
    expect(sent.body.images).toBeUndefined();

    const { seen, last } = await walk(viduVideo, call(), upstreamId, vidu.advance);
    expect(seen).toEqual(['queued', 'in_progress', 'completed']);
    expect(last.progress).toBe(100);
    expect(last.content?.thumbnail).toBeTruthy();
    await expectPlayableWithRange(viduVideo, call(), upstreamId, last);
  });

  it('a stored link that has expired is replaced by a fresh one from the creations, once', async () => {
    const { upstreamId } = await viduVideo.submit(call(), { model: 'viduq1', prompt: 'an old clock' });
    const { last } = await walk(viduVideo, call(), upstreamId, vidu.advance);
    vidu.advance(2 * LINK_TTL_MS);
    const polls = () => vidu.requests.filter((r) => r.path === `/ent/v2/tasks/${upstreamId}/creations`).length;
    const before = polls();
    const file = await viduVideo.content(call(), upstreamId, last.content, 'video', 'bytes=0-9');
    expect(file.status).toBe(206);
    expect((await bytesOf(file)).equals(FAKE_MP4.subarray(0, 10))).toBe(true);
    expect(polls()).toBe(before + 1);
    // A task the upstream no longer knows ends in its 404 after one fresh read, not a loop.
    const gone = await refusedWith(
      viduVideo.content(call(), 'no-such-task', { video: `${vidu.url}/files/1.mp4?expires=0` }, 'video'),
    );
    expect(gone.status).toBe(404);
  });

  it('first and last frames go to start-end2video as two images; a 1280x720 size on vidu2.0 becomes 720p', async () => {
    const before = vidu.requests.length;
    await viduVideo.submit(call('vidu2.0'), {
      model: 'vidu2.0',
      prompt: 'dawn to dusk',
      seconds: 4,
      size: '1280x720',
      firstFrame: { data: Buffer.from([0x89, 0x50, 0x4e, 0x47]), mime: 'image/png' },
      lastFrame: { url: 'https://img.example.com/last.jpg' },
      extra: { movement_amplitude: 'small' },
    });
    const sent = vidu.requests[before];
    expect(sent.path).toBe('/ent/v2/start-end2video');
    expect(sent.body).toMatchObject({
      model: 'vidu2.0',
      duration: 4,
      resolution: '720p',
      movement_amplitude: 'small',
      images: ['data:image/png;base64,iVBORw==', 'https://img.example.com/last.jpg'],
    });
  });

  it('refuses with a 400 what the model cannot make, before sending anything', async () => {
    const before = vidu.requests.length;
    const noImage = await refusedWith(viduVideo.submit(call('vidu2.0'), { model: 'vidu2.0', prompt: 'x' }));
    expect(noImage.status).toBe(400);
    expect(noImage.message).toContain('only from an image');
    const eight = await refusedWith(viduVideo.submit(call('viduq1'), { model: 'viduq1', prompt: 'x', seconds: 8 }));
    expect(eight.status).toBe(400);
    expect(eight.message).toBe('viduq1 makes videos of 5 seconds, not 8');
    const hd = await refusedWith(
      viduVideo.submit(call('vidu1.5'), { model: 'vidu1.5', prompt: 'x', seconds: 8, resolution: '1080p' }),
    );
    expect(hd.message).toBe('vidu1.5 makes 8-second videos at 720p, not 1080p');
    const lastOnly = await refusedWith(
      viduVideo.submit(call(), { model: 'viduq1', prompt: 'x', lastFrame: { url: 'https://img.example.com/a.png' } }),
    );
    expect(lastOnly.status).toBe(400);
    expect(vidu.requests.length).toBe(before);
  });

  it("a failed job reports Vidu's err_code; a wrong key is the channel's 502 naming no key or host", async () => {
    const { upstreamId } = await viduVideo.submit(call(), { model: 'viduq1', prompt: 'this one will fail' });
    const { last } = await walk(viduVideo, call(), upstreamId, vidu.advance);
    expect(last).toMatchObject({ state: 'failed', failReason: 'AuditSubmitIllegal' });

    const bad = await refusedWith(viduVideo.submit(call('viduq1', 'wrong-key'), { model: 'viduq1', prompt: 'x' }));
    expect(bad.status).toBe(502);
    expect(bad.message).toContain('Channel #7');
    expect(bad.message).not.toContain('wrong-key');
    expect(bad.message).not.toContain('127.0.0.1');
  });

  it("the fake is strict: a Bearer key, images on text2video and an unknown model are refused in Vidu's shape", async () => {
    const post = (path: string, auth: string, body: unknown) =>
      fetch(`${vidu.url}${path}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bearer = await post('/ent/v2/text2video', `Bearer ${vidu.key}`, { model: 'viduq1', prompt: 'x' });
    expect(bearer.status).toBe(401);
    const withImages = await post('/ent/v2/text2video', `Token ${vidu.key}`, {
      model: 'viduq1',
      prompt: 'x',
      images: ['https://a/b.png'],
    });
    expect(withImages.status).toBe(400);
    expect(await withImages.json()).toMatchObject({ code: 400, reason: 'InvalidParameter' });
    const q2 = await post('/ent/v2/text2video', `Token ${vidu.key}`, { model: 'vidu2.0', prompt: 'x' });
    expect(q2.status).toBe(400);
  });
});

describe('Ali Wan on DashScope (type 17)', () => {
  const call = (model: string, key = wan?.key) => adapterCall(ChannelType.Ali, wan.url, key, model);

  it('text-to-video: async header, size as W*H, PENDING -> RUNNING -> SUCCEEDED, settled on usage (5 s, 1280x720), the file with Range', async () => {
    const before = wan.requests.length;
    const { upstreamId } = await aliVideo.submit(call('wanx2.1-t2v-turbo'), {
      model: 'wan-fast',
      prompt: 'rain on a tin roof',
      negativePrompt: 'people',
      size: '1280x720',
    });
    const sent = wan.requests[before];
    expect(sent.path).toBe('/api/v1/services/aigc/video-generation/video-synthesis');
    expect(sent.headers['x-dashscope-async']).toBe('enable');
    expect(sent.headers.authorization).toBe(`Bearer ${wan.key}`);
    expect(sent.body).toEqual({
      model: 'wanx2.1-t2v-turbo',
      input: { prompt: 'rain on a tin roof', negative_prompt: 'people' },
      parameters: { duration: 5, size: '1280*720' },
    });
    const { seen, last } = await walk(aliVideo, call('wanx2.1-t2v-turbo'), upstreamId, wan.advance);
    expect(seen).toEqual(['queued', 'in_progress', 'completed']);
    expect(last).toMatchObject({ seconds: 5, size: '1280x720', resolution: '720p' });
    await expectPlayableWithRange(aliVideo, call('wanx2.1-t2v-turbo'), upstreamId, last);
  });

  it('an aspect ratio and resolution pick the size; image-to-video sends img_url and a resolution tier', async () => {
    let before = wan.requests.length;
    await aliVideo.submit(call('wan2.2-t2v-plus'), {
      model: 'w',
      prompt: 'x',
      aspectRatio: '9:16',
      resolution: '1080p',
    });
    expect(wan.requests[before].body.parameters).toEqual({ duration: 5, size: '1080*1920' });
    before = wan.requests.length;
    await aliVideo.submit(call('wan2.2-i2v-plus'), {
      model: 'w',
      prompt: 'the statue blinks',
      resolution: '480p',
      firstFrame: { url: 'https://img.example.com/statue.png' },
    });
    expect(wan.requests[before].body).toEqual({
      model: 'wan2.2-i2v-plus',
      input: { prompt: 'the statue blinks', img_url: 'https://img.example.com/statue.png' },
      parameters: { duration: 5, resolution: '480P' },
    });
  });

  it('refuses with a 400 what a Wan model cannot make, before sending anything', async () => {
    const before = wan.requests.length;
    const img = await refusedWith(
      aliVideo.submit(call('wan2.2-t2v-plus'), { model: 'w', prompt: 'x', firstFrame: { url: 'https://a/b.png' } }),
    );
    expect(img.status).toBe(400);
    expect(img.message).toContain('takes no image');
    const noImg = await refusedWith(aliVideo.submit(call('wan2.2-i2v-plus'), { model: 'w', prompt: 'x' }));
    expect(noImg.message).toContain('give a first frame');
    const ten = await refusedWith(aliVideo.submit(call('wanx2.1-t2v-turbo'), { model: 'w', prompt: 'x', seconds: 10 }));
    expect(ten.message).toBe('wanx2.1-t2v-turbo makes videos of 5 seconds, not 10');
    const square = await refusedWith(
      aliVideo.submit(call('wanx2.1-t2v-turbo'), { model: 'w', prompt: 'x', size: '1024x1024' }),
    );
    expect(square.status).toBe(400);
    expect(square.message).toContain('1024x1024 is not one of them');
    expect(wan.requests.length).toBe(before);
  });

  it("a failed job carries DashScope's code and message; an unknown task id is failed; a wrong key is a 502", async () => {
    const { upstreamId } = await aliVideo.submit(call('wanx2.1-t2v-turbo'), { model: 'w', prompt: 'please fail' });
    const { last } = await walk(aliVideo, call('wanx2.1-t2v-turbo'), upstreamId, wan.advance);
    expect(last.state).toBe('failed');
    expect(last.failReason).toBe('DataInspectionFailed: Output data may contain inappropriate content.');
    const gone = await aliVideo.poll(call('wanx2.1-t2v-turbo'), 'no-such-task');
    expect(gone.state).toBe('failed');
    const bad = await refusedWith(aliVideo.submit(call('wanx2.1-t2v-turbo', 'sk-wrong'), { model: 'w', prompt: 'x' }));
    expect(bad.status).toBe(502);
    expect(bad.message).toContain('InvalidApiKey');
    expect(bad.message).not.toContain('sk-wrong');
  });

  it('the fake is strict: no async header is 403 AccessDenied, a resolution on a text model is 400', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${wan.url}/api/v1/services/aigc/video-generation/video-synthesis`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wan.key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const sync = await post({}, { model: 'wanx2.1-t2v-turbo', input: { prompt: 'x' } });
    expect(sync.status).toBe(403);
    expect(await sync.json()).toMatchObject({ code: 'AccessDenied' });
    const res = await post(
      { 'x-dashscope-async': 'enable' },
      { model: 'wanx2.1-t2v-turbo', input: { prompt: 'x' }, parameters: { resolution: '720P' } },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'InvalidParameter', request_id: expect.any(String) });
  });
});

describe('MiniMax Hailuo (type 35)', () => {
  const call = (model: string, key = hailuo?.key) => adapterCall(ChannelType.MiniMax, hailuo.url, key, model);

  it('Hailuo-02 10 s at 768P: Preparing -> Queueing -> Processing -> Success, the file found by its id and read with Range', async () => {
    const before = hailuo.requests.length;
    const { upstreamId } = await minimaxVideo.submit(call('MiniMax-Hailuo-02'), {
      model: 'hailuo',
      prompt: 'a paper boat in a storm drain',
      seconds: 10,
      size: '1366x768',
    });
    expect(hailuo.requests[before].body).toEqual({
      model: 'MiniMax-Hailuo-02',
      prompt: 'a paper boat in a storm drain',
      duration: 10,
      resolution: '768P',
    });
    const { seen, last } = await walk(minimaxVideo, call('MiniMax-Hailuo-02'), upstreamId, hailuo.advance);
    expect(seen).toEqual(['queued', 'in_progress', 'completed']);
    expect(last).toMatchObject({ size: '1366x768', resolution: '768p' });
    // The stored content is the file id: the expiring download link is fetched when the file is opened.
    expect(last.content?.video).toMatch(/^minimax-file:\d+$/);
    await expectPlayableWithRange(minimaxVideo, call('MiniMax-Hailuo-02'), upstreamId, last);
    expect(hailuo.requests.some((r) => r.path.startsWith('/v1/files/retrieve?file_id='))).toBe(true);
  });

  it('refuses with a 400 what a Hailuo model cannot make; an image-to-video model gets first_frame_image', async () => {
    const before = hailuo.requests.length;
    const hd = await refusedWith(
      minimaxVideo.submit(call('MiniMax-Hailuo-02'), { model: 'h', prompt: 'x', seconds: 10, resolution: '1080p' }),
    );
    expect(hd.message).toBe('MiniMax-Hailuo-02 makes 10-second videos at 768p, not 1080p');
    const noImg = await refusedWith(minimaxVideo.submit(call('I2V-01'), { model: 'h', prompt: 'x' }));
    expect(noImg.status).toBe(400);
    const img = await refusedWith(
      minimaxVideo.submit(call('T2V-01'), { model: 'h', prompt: 'x', firstFrame: { url: 'https://a/b.png' } }),
    );
    expect(img.status).toBe(400);
    const neg = await refusedWith(
      minimaxVideo.submit(call('T2V-01'), { model: 'h', prompt: 'x', negativePrompt: 'y' }),
    );
    expect(neg.message).toBe('Hailuo takes no negative prompt');
    expect(hailuo.requests.length).toBe(before);

    await minimaxVideo.submit(call('I2V-01'), { model: 'h', prompt: 'wave', firstFrame: { url: 'https://a/b.png' } });
    expect(hailuo.requests.at(-1)!.body).toEqual({
      model: 'I2V-01',
      prompt: 'wave',
      duration: 6,
      resolution: '720P',
      first_frame_image: 'https://a/b.png',
    });
  });

  it('reads refusals from base_resp on HTTP 200: sensitive input is a 400, a wrong key a 502; a failed job is failed', async () => {
    const sensitive = await refusedWith(
      minimaxVideo.submit(call('T2V-01'), { model: 'h', prompt: 'something sensitive' }),
    );
    expect(sensitive.status).toBe(400);
    expect(sensitive.message).toContain('1026');
    const bad = await refusedWith(minimaxVideo.submit(call('T2V-01', 'wrong'), { model: 'h', prompt: 'x' }));
    expect(bad.status).toBe(502);
    expect(bad.message).toContain('1004');
    const { upstreamId } = await minimaxVideo.submit(call('T2V-01'), { model: 'h', prompt: 'do fail' });
    const { last } = await walk(minimaxVideo, call('T2V-01'), upstreamId, hailuo.advance);
    expect(last.state).toBe('failed');
    expect(last.failReason).toContain('Fail');
  });
});
