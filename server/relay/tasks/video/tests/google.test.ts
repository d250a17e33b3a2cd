import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenerateVideosOperation, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import {
  FAKE_GEMINI_VEO_KEY,
  type FakeVeo,
  fakeServiceAccount,
  startFakeVeo,
} from '../../../../../scripts/fake-upstream/video/veo.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { insertToken, insertUser } from '../../../../../test/relay-fixtures.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * Google's Veo door and the two Veo upstreams (issue 40), through a listening gateway and the video
 * service, driven by the real @google/genai client (apiKey = the sk- token, baseUrl = the gateway):
 * generateVideos -> getVideosOperation until done -> files.download of the uri, which is the
 * gateway's and downloads with the caller's own key. Veo on the Gemini API (24, API key) and on
 * Vertex AI (41, a service account whose JWT the fake verifies before it issues a bearer token),
 * billed price x seconds (Google charges Veo alike at 720p and 1080p: no size multiplier); failed and safety-filtered jobs refunded; refusals
 * in Google's {error:{code,message,status}} shape; another user's operation a 404; and across
 * dialects: the OpenAI SDK on a Veo channel, the Google client on a Sora channel.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const PRICE = 0.05;
const INITIAL = 10_000_000;
const SERVER = 'https://gw.example.com';
const GEMINI_MODEL = 'veo-3.0-generate-001';
const VERTEX_MODEL = 'veo-3.1-generate-001';
const DEAD_GEMINI = 'veo-3.0-fast-generate-001';
const DEAD_VERTEX = 'veo-3.1-fast-generate-001';

let h: VideoHarness;
let veo: FakeVeo;
let sora: FakeSora;
let dir: string;

beforeAll(async () => {
  h = await startVideoHarness();
  veo = await startFakeVeo({ stepMs: STEP });
  sora = await startFakeSora({ key: 'sk-sora', stepMs: STEP });
  dir = await mkdtemp(join(tmpdir(), 'veo-'));
  await h.setOptions({
    ModelPrice: JSON.stringify({
      [GEMINI_MODEL]: PRICE,
      [VERTEX_MODEL]: PRICE,
      [DEAD_GEMINI]: PRICE,
      [DEAD_VERTEX]: PRICE,
      'sora-2': PRICE,
    }),
  });
  await h.channel({ type: ChannelType.Gemini, key: FAKE_GEMINI_VEO_KEY, baseUrl: veo.url, models: [GEMINI_MODEL] });
  await h.channel({
    type: ChannelType.VertexAI,
    key: fakeServiceAccount(veo.url),
    baseUrl: veo.url,
    other: 'us-central1',
    models: [VERTEX_MODEL],
  });
  await h.channel({ type: ChannelType.Sora, key: 'sk-sora', baseUrl: sora.url, models: ['sora-2'] });
  // Channels whose own key Google refuses: the operator's fault, never shown as the caller's.
  await h.channel({ type: ChannelType.Gemini, key: 'AIza-revoked', baseUrl: veo.url, models: [DEAD_GEMINI] });
  await h.channel({
    type: ChannelType.VertexAI,
    key: fakeServiceAccount(veo.url, { refused: true }),
    baseUrl: veo.url,
    models: [DEAD_VERTEX],
  });
});
afterAll(async () => {
  await h.close();
  await veo.close();
  await sora.close();
  await rm(dir, { recursive: true, force: true });
});

// In English: the relay answers Chinese by default (issue 45) and these tests read its English wording.
const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };
const google = (key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.gateway, headers: ENGLISH } });
const gatewayIdOf = (op: GenerateVideosOperation) => op.name!.split('/operations/')[1];

/** The upstream's own names must never reach a client. */
function expectNoUpstream(value: unknown) {
  const text = JSON.stringify(value);
  expect(text).not.toContain(veo.url);
  expect(text).not.toContain(sora.url);
  expect(text).not.toContain(FAKE_GEMINI_VEO_KEY);
  for (const id of veo.jobs.keys()) expect(text).not.toContain(id);
}

/** Moves the fake past a whole job and makes the gateway's row stale, then reads it as the client does. */
async function finish(ai: GoogleGenAI, op: GenerateVideosOperation, fake: { advance(ms: number): void } = veo) {
  fake.advance(20 * STEP);
  await h.due(gatewayIdOf(op));
  return ai.operations.getVideosOperation({ operation: op });
}

/** The newest job the fake holds (the one the gateway just submitted). */
const lastJob = () => [...veo.jobs.values()].at(-1)!;

describe("Google's Veo door", () => {
  it('runs a Veo job on a Gemini channel: generateVideos, getVideosOperation, files.download with the own key', async () => {
    const u = await h.payer(INITIAL);
    const ai = google(u.key);
    const op = await ai.models.generateVideos({
      model: GEMINI_MODEL,
      prompt: 'a lighthouse in a storm',
      config: { durationSeconds: 6, aspectRatio: '9:16', resolution: '720p', negativePrompt: 'people' },
    });
    expect(op.name).toMatch(new RegExp(`^models/${GEMINI_MODEL}/operations/video_[0-9a-f]{32}$`));
    expect(op.done).toBeFalsy();
    expectNoUpstream(op);
    const job = lastJob();
    expect(job.surface).toBe('gemini');
    expect(job.instance).toEqual({ prompt: 'a lighthouse in a storm' });
    expect(job.parameters).toEqual({
      durationSeconds: 6,
      aspectRatio: '9:16',
      resolution: '720p',
      negativePrompt: 'people',
      sampleCount: 1,
    });
    const charge = Math.round(PRICE * 6 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.charged(u, INITIAL)).toBe(charge);

    await h.due(gatewayIdOf(op));
    const running = await ai.operations.getVideosOperation({ operation: op });
    expect(running.done).toBeFalsy();

    const done = await finish(ai, op);
    expect(done.done).toBe(true);
    expect(done.error).toBeUndefined();
    const sample = done.response!.generatedVideos![0];
    const hex = gatewayIdOf(op).replace('video_', '');
    expect(sample.video!.uri).toBe(`${SERVER}/v1beta/files/${hex}:download?alt=media`);
    expectNoUpstream(done);
    expect(await h.charged(u, INITIAL)).toBe(charge);

    // The SDK reads the file name out of the https uri and asks the gateway (its baseUrl) for it.
    const path = join(dir, 'gemini.mp4');
    await ai.files.download({ file: sample, downloadPath: path });
    const bytes = await readFile(path);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.equals(veo.fileOf(job.id))).toBe(true);

    // The uri itself with ?key= (as a browser or curl follows it), and a player's Range.
    const uri = sample.video!.uri!.replace(SERVER, h.gateway);
    const part = await fetch(`${uri}&key=${u.key}`, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(4, 12))).toBe(true);
    const noKey = await fetch(uri);
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('runs Veo 3.1 on a Vertex AI channel with first and last frames at 1080p, billed x1 (Veo costs the same per second at 1080p)', async () => {
    const u = await h.payer(INITIAL);
    const ai = google(u.key);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const op = await ai.models.generateVideos({
      model: VERTEX_MODEL,
      prompt: 'a bud opening into a flower',
      image: { imageBytes: png, mimeType: 'image/png' },
      config: {
        durationSeconds: 8,
        resolution: '1080p',
        lastFrame: { imageBytes: png, mimeType: 'image/png' },
        personGeneration: 'dont_allow',
      },
    });
    const job = lastJob();
    expect(job.surface).toBe('vertex');
    // The fake accepted only a bearer token it issued for the service account's signed JWT.
    const submit = veo.requests.find((r) => r.path.endsWith(`${VERTEX_MODEL}:predictLongRunning`))!;
    expect(submit.path).toBe(
      `/v1/projects/switchyard-test/locations/us-central1/publishers/google/models/${VERTEX_MODEL}:predictLongRunning`,
    );
    expect(String(submit.headers.authorization)).toMatch(/^Bearer ya29\.fake-/);
    expect(veo.requests.some((r) => r.path === '/token')).toBe(true);
    expect(job.instance).toEqual({
      prompt: 'a bud opening into a flower',
      image: { bytesBase64Encoded: png, mimeType: 'image/png' },
      lastFrame: { bytesBase64Encoded: png, mimeType: 'image/png' },
    });
    expect(job.parameters).toMatchObject({ durationSeconds: 8, resolution: '1080p', personGeneration: 'dont_allow' });
    const charge = Math.round(PRICE * 8 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.charged(u, INITIAL)).toBe(charge);

    const done = await finish(ai, op);
    expect(done.done).toBe(true);
    // Vertex returned the video inline: the gateway serves it from the operation, at its own uri.
    const sample = done.response!.generatedVideos![0];
    expect(sample.video!.uri).toMatch(new RegExp(`^${SERVER}/v1beta/files/[0-9a-f]{32}:download\\?alt=media$`));
    expect(sample.video!.videoBytes).toBeUndefined();
    expect(veo.requests.some((r) => r.path.endsWith(':fetchPredictOperation'))).toBe(true);
    expectNoUpstream(done);
    const path = join(dir, 'vertex.mp4');
    await ai.files.download({ file: sample, downloadPath: path });
    expect((await readFile(path)).equals(veo.fileOf(job.id))).toBe(true);
    expect(await h.charged(u, INITIAL)).toBe(charge);
  });

  it('refunds a failed job and a job whose every sample the safety filter withheld, and says why', async () => {
    const u = await h.payer(INITIAL);
    const ai = google(u.key);
    const failed = await ai.models.generateVideos({ model: GEMINI_MODEL, prompt: 'please fail' });
    expect(await h.charged(u, INITIAL)).toBe(Math.round(PRICE * 8 * VIDEO_QUOTA_PER_UNIT));
    const over = await finish(ai, failed);
    expect(over.done).toBe(true);
    expect(over.error).toMatchObject({ code: 13, message: expect.stringContaining('the fake was asked to fail') });
    expect(over.response).toBeUndefined();

    const unsafe = await ai.models.generateVideos({ model: VERTEX_MODEL, prompt: 'something unsafe' });
    const filtered = await finish(ai, unsafe);
    expect(filtered.error?.message).toContain('responsible AI filter');
    await h.poll();
    expect(await h.charged(u, INITIAL)).toBe(0);
    const hex = gatewayIdOf(unsafe).replace('video_', '');
    const file = await fetch(`${h.gateway}/v1beta/files/${hex}:download?alt=media`, {
      headers: { 'x-goog-api-key': u.key },
    });
    expect(file.status).toBe(409);
    expect((await file.json()).error.code).toBe(409);
  });

  it("refuses what Veo cannot make in Google's error shape, charging nothing", async () => {
    const u = await h.payer(INITIAL);
    const post = (model: string, body: unknown, key: string | null = u.key) =>
      fetch(`${h.gateway}/v1beta/models/${model}:predictLongRunning`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ENGLISH, ...(key ? { 'x-goog-api-key': key } : {}) },
        body: JSON.stringify(body),
      });
    const before = veo.requests.length;
    const cases: [string, unknown, RegExp][] = [
      [GEMINI_MODEL, { instances: [{ prompt: 'x' }], parameters: { durationSeconds: 7 } }, /7/],
      [GEMINI_MODEL, { instances: [{ prompt: 'x' }], parameters: { sampleCount: 2 } }, /sampleCount must be 1/],
      [GEMINI_MODEL, { instances: [{ prompt: 'x' }], parameters: { aspectRatio: '1:1' } }, /1:1/],
      [
        GEMINI_MODEL,
        { instances: [{ prompt: 'x' }], parameters: { resolution: '1080p', durationSeconds: 4 } },
        /8 seconds only/,
      ],
      [
        GEMINI_MODEL,
        {
          instances: [
            {
              prompt: 'x',
              image: { bytesBase64Encoded: 'iVBORw0K', mimeType: 'image/png' },
              lastFrame: { bytesBase64Encoded: 'iVBORw0K', mimeType: 'image/png' },
            },
          ],
        },
        /last frame/,
      ],
      [GEMINI_MODEL, { instances: [{ prompt: 'x', video: { uri: 'gs://b/v.mp4' } }] }, /Extending/],
    ];
    for (const [model, body, why] of cases) {
      const r = await post(model, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const e = (await r.json()).error;
      expect(e).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(e.message).toMatch(why);
    }
    expect(veo.requests.length).toBe(before);
    const anon = await post(GEMINI_MODEL, { instances: [{ prompt: 'x' }] }, null);
    expect(anon.status).toBe(401);
    expect((await anon.json()).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    // Through the SDK, the refusal reads as Google's ApiError.
    await expect(
      google(u.key).models.generateVideos({ model: GEMINI_MODEL, prompt: 'x', config: { durationSeconds: 5 } }),
    ).rejects.toThrow(/not 5/);
    // A channel key Google refuses (an invalid API key, a service account whose JWT fails) is a 502
    // naming the channel, not a 401 the caller would take for its own key.
    for (const model of [DEAD_GEMINI, DEAD_VERTEX]) {
      const r = await post(model, { instances: [{ prompt: 'x' }] });
      expect(r.status, model).toBe(502);
      const e = (await r.json()).error;
      expect(e).toMatchObject({ code: 502 });
      expect(e.message).toMatch(/Channel #\d+|channel #\d+/);
      expectNoUpstream(e);
    }
    expect(await h.charged(u, INITIAL)).toBe(0);
  });

  it("the token's model limits, IP allow-list and rate limit apply at submit, before Veo is asked", async () => {
    const u = await insertUser(h.deps, { quota: INITIAL });
    const key = async (o: Parameters<typeof insertToken>[2]) => (await insertToken(h.deps, u.id, o)).key;
    const before = veo.requests.length;
    const submit = async (k: string, prompt: string) =>
      fetch(`${h.gateway}/v1beta/models/${GEMINI_MODEL}:predictLongRunning`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': k },
        body: JSON.stringify({ instances: [{ prompt }] }),
      });
    const other = await submit(await key({ unlimited: true, modelLimits: [VERTEX_MODEL] }), 'not my model');
    expect(other.status).toBe(403);
    expect((await other.json()).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    const ip = await submit(await key({ unlimited: true, allowIps: '10.9.9.9' }), 'wrong ip');
    expect(ip.status).toBe(403);
    expect(veo.requests.length).toBe(before);
    const two = await key({ unlimited: true, rateLimit: { period: 60, count: 2, success: 100 } });
    expect((await submit(two, 'rate 1')).status).toBe(200);
    expect((await submit(two, 'rate 2')).status).toBe(200);
    const third = await submit(two, 'rate 3');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await third.json()).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(veo.requests.length).toBe(before + 2);
  });

  it("answers 404 for another user's operation and file, on every route", async () => {
    const owner = await h.payer(INITIAL);
    const other = await h.payer(INITIAL);
    const op = await google(owner.key).models.generateVideos({ model: GEMINI_MODEL, prompt: 'mine alone' });
    await finish(google(owner.key), op);
    const id = gatewayIdOf(op);
    const hex = id.replace('video_', '');
    for (const path of [
      `/v1beta/models/${GEMINI_MODEL}/operations/${id}`,
      `/v1beta/files/${hex}:download?alt=media`,
      `/v1beta/files/${hex}`,
    ]) {
      const r = await fetch(`${h.gateway}${path}`, { headers: { 'x-goog-api-key': other.key } });
      expect(r.status, path).toBe(404);
      expect((await r.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      expect((await fetch(`${h.gateway}${path}`, { headers: { 'x-goog-api-key': owner.key } })).status, path).toBe(200);
    }
    await expect(google(other.key).operations.getVideosOperation({ operation: op })).rejects.toThrow(/not found/i);
    // Another model's path does not reach the operation either.
    const wrong = await fetch(`${h.gateway}/v1beta/models/${VERTEX_MODEL}/operations/${id}`, {
      headers: { 'x-goog-api-key': owner.key },
    });
    expect(wrong.status).toBe(404);
  });
});

describe('any door to any video upstream', () => {
  it('the OpenAI SDK drives a Veo channel: size 1280x720 becomes 16:9 at 720p, 8 s', async () => {
    const u = await h.payer(INITIAL);
    const openai = new OpenAI({ apiKey: u.key, baseURL: `${h.gateway}/v1`, maxRetries: 0 });
    const created = await openai.videos.create({
      model: GEMINI_MODEL as 'sora-2',
      prompt: 'waves on a beach',
      seconds: '8',
      size: '1280x720',
    });
    const job = lastJob();
    expect(job.parameters).toMatchObject({ durationSeconds: 8, aspectRatio: '16:9', resolution: '720p' });
    expect(await h.charged(u, INITIAL)).toBe(Math.round(PRICE * 8 * VIDEO_QUOTA_PER_UNIT));
    veo.advance(20 * STEP);
    await h.due(created.id);
    const got = await openai.videos.retrieve(created.id);
    expect(got.status).toBe('completed');
    const res = await openai.videos.downloadContent(created.id);
    expect(Buffer.from(await res.arrayBuffer()).equals(veo.fileOf(job.id))).toBe(true);
    // What Veo cannot make is a 400 saying why, in OpenAI's shape.
    await expect(
      openai.videos.create({ model: GEMINI_MODEL as 'sora-2', prompt: 'x', seconds: '12' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('the Google client drives a Sora channel and downloads its file through the uri', async () => {
    const u = await h.payer(INITIAL);
    const ai = google(u.key);
    const op = await ai.models.generateVideos({
      model: 'sora-2',
      prompt: 'a fox in snow',
      config: { durationSeconds: 4 },
    });
    const soraJob = [...sora.videos.values()].at(-1)!;
    expect(soraJob.seconds).toBe('4');
    expect(await h.charged(u, INITIAL)).toBe(Math.round(PRICE * 4 * VIDEO_QUOTA_PER_UNIT));
    const done = await finish(ai, op, sora);
    expect(done.done).toBe(true);
    expectNoUpstream(done);
    expect(JSON.stringify(done)).not.toContain(soraJob.id);
    const path = join(dir, 'sora.mp4');
    await ai.files.download({ file: done.response!.generatedVideos![0], downloadPath: path });
    expect((await readFile(path)).equals(sora.contentOf(soraJob.id))).toBe(true);
  });
});
