import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import { type FakeKling, startFakeKling } from '../../../../../scripts/fake-upstream/video/kling.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { insertToken } from '../../../../../test/relay-fixtures.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * The Kling door (/kling/v1/videos/...) end to end through a listening gateway and the video service
 * (issue 40): a Kling client's job on a Kling channel from submit to a file downloaded with its own
 * token, billed price x seconds x the 1080p multiplier; a failed job refunded; errors in Kling's
 * {code, message, request_id} shape; another user's task id a 404; and any door to any upstream: a
 * Kling client on a Sora channel, the official OpenAI SDK on a Kling channel.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const PRICE = 0.1;
const INITIAL = 10_000_000;
const SERVER = 'https://gw.example.com';

let h: VideoHarness;
let kling: FakeKling;
let sora: FakeSora;

beforeAll(async () => {
  h = await startVideoHarness();
  kling = await startFakeKling({ stepMs: STEP });
  sora = await startFakeSora({ key: 'sk-sora', stepMs: STEP });
  await h.setOptions({ ModelPrice: JSON.stringify({ 'kling-v2-1': PRICE, 'sora-2': PRICE }) });
  await h.channel({
    type: ChannelType.Kling,
    key: `${kling.accessKey}|${kling.secretKey}`,
    baseUrl: kling.url,
    models: ['kling-v2-1'],
  });
  await h.channel({ type: ChannelType.Sora, key: 'sk-sora', baseUrl: sora.url, models: ['sora-2'] });
});
afterAll(async () => {
  await h.close();
  await kling.close();
  await sora.close();
});

const payer = () => h.payer(INITIAL);

// Kling answers of many shapes; asserting on them is the type check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; json: any; text: string };

async function call(method: string, path: string, key: string | null, body?: unknown): Promise<Answer> {
  const r = await h.call(method, path, key, body);
  return { status: r.status, json: r.json, text: typeof r.json === 'string' ? r.json : JSON.stringify(r.json) };
}

/** A gateway link as a client would follow it (the links name ServerAddress; the test's gateway listens elsewhere). */
const onGateway = (url: string) => url.replace(SERVER, h.gateway);

/** The upstream's own names must never reach a client. */
function expectNoUpstream(text: string) {
  expect(text).not.toContain(kling.url);
  expect(text).not.toContain(sora.url);
  expect(text).not.toContain(kling.secretKey);
  for (const id of kling.tasks.keys()) expect(text).not.toContain(id);
}

describe('the Kling door', () => {
  it('runs a Kling job from submit to a downloaded file, charging price x 10 s x the 1080p multiplier', async () => {
    const u = await payer();
    const sub = await call('POST', '/kling/v1/videos/text2video', u.key, {
      model_name: 'kling-v2-1',
      prompt: 'a paper boat on a river',
      negative_prompt: 'blur',
      mode: 'pro',
      duration: '10',
      aspect_ratio: '9:16',
      cfg_scale: 0.6,
    });
    expect(sub.status).toBe(200);
    expect(sub.json).toMatchObject({ code: 0, message: 'SUCCEED', data: { task_status: 'submitted' } });
    expect(typeof sub.json.request_id).toBe('string');
    const id = sub.json.data.task_id as string;
    expectNoUpstream(sub.text);
    expect(kling.requests.at(-1)!.body).toEqual({
      model_name: 'kling-v2-1',
      prompt: 'a paper boat on a river',
      negative_prompt: 'blur',
      mode: 'pro',
      duration: '10',
      aspect_ratio: '9:16',
      cfg_scale: 0.6,
    });
    const charge = Math.round(PRICE * 10 * 1.666667 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.charged(u, INITIAL)).toBe(charge);

    kling.advance(2 * STEP);
    await h.due(id);
    const running = await call('GET', `/kling/v1/videos/text2video/${id}`, u.key);
    expect(running.json).toMatchObject({ code: 0, data: { task_id: id, task_status: 'processing' } });

    kling.advance(10 * STEP);
    await h.due(id);
    const done = await call('GET', `/kling/v1/videos/text2video/${id}`, u.key);
    expect(done.json.data).toMatchObject({ task_id: id, task_status: 'succeed' });
    const [video] = done.json.data.task_result.videos as { id: string; url: string; duration: string }[];
    expect(video.duration).toBe('10');
    expect(video.url).toBe(`${SERVER}/kling/v1/videos/${id}/content`);
    expectNoUpstream(done.text);
    expect(await h.charged(u, INITIAL)).toBe(charge);

    const whole = await fetch(onGateway(video.url), { headers: { authorization: `Bearer ${u.key}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer()).equals(kling.mp4)).toBe(true);
    const part = await fetch(onGateway(video.url), {
      headers: { authorization: `Bearer ${u.key}`, range: 'bytes=4-7' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-7/${kling.mp4.length}`);
    expect(await part.text()).toBe('ftyp');

    // Another user's task id is a 404 on every route of the door, in Kling's shape.
    const other = await payer();
    for (const path of [`/kling/v1/videos/text2video/${id}`, `/kling/v1/videos/${id}/content`]) {
      const r = await call('GET', path, other.key);
      expect(r.status, path).toBe(404);
      expect(r.json).toMatchObject({ code: 1203 });
      expect(typeof r.json.request_id).toBe('string');
    }
  });

  it('refunds a job Kling fails in full and shows Kling’s reason', async () => {
    const u = await payer();
    const sub = await call('POST', '/kling/v1/videos/image2video', u.key, {
      model_name: 'kling-v2-1',
      prompt: 'this should fail',
      image: 'https://example.com/first.png',
    });
    expect(sub.json.code).toBe(0);
    const id = sub.json.data.task_id as string;
    expect(kling.requests.at(-1)!.body).toMatchObject({ image: 'https://example.com/first.png', duration: '5' });
    expect(await h.charged(u, INITIAL)).toBe(Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));
    // The background poller (not a read) finds the failure and refunds.
    kling.advance(3 * STEP);
    await h.due(id);
    await h.poll();
    expect(await h.charged(u, INITIAL)).toBe(0);
    const failed = await call('GET', `/kling/v1/videos/image2video/${id}`, u.key);
    expect(failed.json.data).toMatchObject({
      task_status: 'failed',
      task_status_msg: expect.stringContaining('fake failure: the prompt asked to fail'),
    });
    expect(await h.charged(u, INITIAL)).toBe(0);
    const file = await call('GET', `/kling/v1/videos/${id}/content`, u.key);
    expect(file.status).toBe(409);
    expect(file.json.code).toBe(1201);
  });

  it('answers refusals in Kling’s shape with real statuses, saying why, and charges nothing', async () => {
    const u = await payer();
    const cases: [string, unknown, number, number, string][] = [
      ['text2video', { model_name: 'kling-v2-1', prompt: 'x', duration: '7' }, 400, 1201, '5, 10 seconds, not 7'],
      ['text2video', { model_name: 'kling-v2-1', prompt: 'x', aspect_ratio: '4:3' }, 400, 1201, 'not 4:3'],
      ['text2video', { model_name: 'kling-v2-1', prompt: 'x', callback_url: 'https://me' }, 400, 1201, 'callback_url'],
      ['text2video', { model_name: 'kling-v2-1' }, 400, 1201, 'prompt'],
      ['image2video', { model_name: 'kling-v2-1', prompt: 'x' }, 400, 1201, 'image or image_tail'],
      ['text2video', { model_name: 'kling-v2-1', prompt: 'x', cfg_scale: 2 }, 400, 1201, 'cfg_scale'],
    ];
    const before = kling.requests.length;
    for (const [kind, body, status, code, why] of cases) {
      const r = await call('POST', `/kling/v1/videos/${kind}`, u.key, body);
      expect(r.status, why).toBe(status);
      expect(r.json, why).toMatchObject({ code });
      expect(r.json.message, why).toContain(why);
    }
    expect(kling.requests.length).toBe(before);
    expect(await h.charged(u, INITIAL)).toBe(0);

    const anon = await call('POST', '/kling/v1/videos/text2video', null, { prompt: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ code: 1000 });
  });

  it("a rate-limited token gets 429 with Retry-After on the Kling door (Kling's shape) and on new-api's door (OpenAI's), before Kling is asked", async () => {
    const u = await payer();
    const limitedKey = async () =>
      (await insertToken(h.deps, u.userId, { unlimited: true, rateLimit: { period: 60, count: 1, success: 100 } })).key;
    const job = { model_name: 'kling-v2-1', model: 'kling-v2-1', prompt: 'one per minute' };

    const klingKey = await limitedKey();
    expect((await call('POST', '/kling/v1/videos/text2video', klingKey, job)).status).toBe(200);
    const newapiKey = await limitedKey();
    const { model_name: _n, ...newapiJob } = job;
    expect((await call('POST', '/v1/video/generations', newapiKey, newapiJob)).status).toBe(200);
    const asked = kling.requests.length;

    const k = await h.call('POST', '/kling/v1/videos/text2video', klingKey, job);
    expect(k.status).toBe(429);
    expect(k.json).toMatchObject({ code: 1302, request_id: expect.any(String) });
    expect(k.json.message).toContain('at most 1 in 60 seconds');
    expect(Number(k.headers.get('retry-after'))).toBeGreaterThan(0);

    const n = await h.call('POST', '/v1/video/generations', newapiKey, newapiJob);
    expect(n.status).toBe(429);
    expect(n.json.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(n.headers.get('retry-after'))).toBeGreaterThan(0);

    // Refused before anything was reserved or sent: only the two accepted jobs are paid for.
    expect(kling.requests.length).toBe(asked);
    expect(Number((await h.ledger(u)).user.quota)).toBe(INITIAL - 2 * Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));
  });

  it('drives a Sora channel from a Kling client: duration and aspect ratio mapped, what Sora cannot make refused', async () => {
    const u = await payer();
    const sub = await call('POST', '/kling/v1/videos/text2video', u.key, {
      model_name: 'sora-2',
      prompt: 'a lighthouse at dusk',
      duration: 8,
      aspect_ratio: '16:9',
    });
    expect(sub.status).toBe(200);
    const id = sub.json.data.task_id as string;
    expect(sora.requests.at(-1)!.fields).toMatchObject({ model: 'sora-2', seconds: '8', size: '1280x720' });
    sora.advance(12 * STEP);
    await h.due(id);
    const done = await call('GET', `/kling/v1/videos/text2video/${id}`, u.key);
    expect(done.json.data).toMatchObject({ task_status: 'succeed', task_result: { videos: [{ duration: '8' }] } });
    expectNoUpstream(done.text);
    const file = await fetch(`${h.gateway}/kling/v1/videos/${id}/content`, {
      headers: { authorization: `Bearer ${u.key}` },
    });
    expect(file.status).toBe(200);
    const upstreamId = [...sora.videos.keys()].at(-1)!;
    expect(Buffer.from(await file.arrayBuffer()).equals(sora.contentOf(upstreamId))).toBe(true);

    // Kling's raw base64 `image` reaches Sora as the first frame, byte for byte.
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const withImage = await call('POST', '/kling/v1/videos/image2video', u.key, {
      model_name: 'sora-2',
      prompt: 'the lighthouse turns on',
      image: png.toString('base64'),
    });
    expect(withImage.status).toBe(200);
    const ref = [...sora.videos.values()].at(-1)!.inputReference!;
    expect(ref.mime).toBe('image/png');
    expect(ref.bytes!.equals(png)).toBe(true);
    // Sora has no last frame: a Kling client asking for one is told so, not given another video.
    const tail = await call('POST', '/kling/v1/videos/image2video', u.key, {
      model_name: 'sora-2',
      prompt: 'x',
      image: png.toString('base64'),
      image_tail: 'https://example.com/end.png',
    });
    expect(tail.status).toBe(400);
    expect(tail.json).toMatchObject({ code: 1201 });
    expect(tail.json.message).toContain('last frame');

    const tooLong = await call('POST', '/kling/v1/videos/text2video', u.key, {
      model_name: 'sora-2',
      prompt: 'x',
      duration: '10',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({ code: 1201 });
    expect(tooLong.json.message).toContain('not 10');
  });

  it('serves the official OpenAI SDK on a Kling channel (create, retrieve, downloadContent)', async () => {
    const u = await payer();
    const client = new OpenAI({ apiKey: u.key, baseURL: `${h.gateway}/v1`, maxRetries: 0 });
    const job = await client.videos.create({ model: 'kling-v2-1', prompt: 'a kite', size: '1280x720' });
    expect(job.status).toBe('queued');
    expect(kling.requests.at(-1)!.body).toMatchObject({ mode: 'std', aspect_ratio: '16:9', duration: '5' });
    kling.advance(12 * STEP);
    await h.due(job.id);
    const done = await client.videos.retrieve(job.id);
    expect(done).toMatchObject({ id: job.id, status: 'completed', seconds: '5' });
    const file = await client.videos.downloadContent(job.id);
    expect(Buffer.from(await file.arrayBuffer()).equals(kling.mp4)).toBe(true);
    expect(await h.charged(u, INITIAL)).toBe(Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));

    await expect(client.videos.create({ model: 'kling-v2-1', prompt: 'a kite', seconds: '4' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
