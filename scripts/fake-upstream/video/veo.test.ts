import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../../../server/relay/channel-config.ts';
import { geminiVideoAdapter } from '../../../server/relay/providers/gemini/video.ts';
import { vertexVideoAdapter } from '../../../server/relay/providers/vertex/video.ts';
import type { VideoCall } from '../../../server/relay/tasks/video/types.ts';
import { bytesOf } from '../../../server/relay/tasks/video/tests/adapter-harness.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import {
  FAKE_GEMINI_VEO_KEY,
  FAKE_GEMINI_VEO_KEY_2,
  FAKE_VERTEX_API_KEY,
  type FakeVeo,
  fakeServiceAccount,
  startFakeVeo,
} from './veo.ts';

/*
 * The Veo fake is as strict as Google (what the adapters' tests lean on): keys, the token exchange,
 * fields, durations, last frames, ownership of operations and files, Range. And the two adapters
 * straight against it, for what no door reaches: Vertex's Cloud Storage output and a seek into an
 * inline video.
 */

const STEP = 60_000;
let veo: FakeVeo;
beforeAll(async () => {
  veo = await startFakeVeo({ stepMs: STEP });
});
afterAll(() => veo.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${veo.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const submit = (body: unknown, key = FAKE_GEMINI_VEO_KEY, model = 'veo-3.0-generate-001') =>
  post(`/v1beta/models/${model}:predictLongRunning`, body, { 'x-goog-api-key': key });

function call(type: number, key: string, model: string, other = ''): VideoCall {
  const channel = { id: 7, type, baseUrl: veo.url, other } as ChannelConfig;
  return { channel, key, upstreamModel: model, options: (() => undefined) as never };
}

describe('the Veo fake (Gemini API)', () => {
  it("refuses a missing key (403) and a wrong one (400 API_KEY_INVALID), as Google's API does", async () => {
    const none = await post('/v1beta/models/veo-3.0-generate-001:predictLongRunning', { instances: [{ prompt: 'x' }] });
    expect(none.status).toBe(403);
    expect((await none.json()).error.status).toBe('PERMISSION_DENIED');
    const wrong = await submit({ instances: [{ prompt: 'x' }] }, 'AIza-wrong');
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.details[0].reason).toBe('API_KEY_INVALID');
  });

  it('refuses unknown fields, durations, ratios, 1080p below 8 s and a last frame before Veo 3.1', async () => {
    const img = { bytesBase64Encoded: 'iVBORw0K', mimeType: 'image/png' };
    for (const [body, model, why] of [
      [{ instances: [{ prompt: 'x', foo: 1 }] }, undefined, /Unknown name "foo"/],
      [{ instances: [{ prompt: 'x' }], parameters: { seed: 1 } }, undefined, /Unknown name "seed"/],
      [{ instances: [{ prompt: 'x' }], parameters: { durationSeconds: 5 } }, undefined, /durationSeconds/],
      [{ instances: [{ prompt: 'x' }], parameters: { aspectRatio: '4:3' } }, undefined, /4:3/],
      [{ instances: [{ prompt: 'x' }], parameters: { resolution: '1080p', durationSeconds: 6 } }, undefined, /8/],
      [{ instances: [{ prompt: 'x', image: img, lastFrame: img }] }, undefined, /lastFrame isn't supported/],
      [{ instances: [{ prompt: 'x', lastFrame: img }] }, 'veo-3.1-generate-preview', /requires image/],
      [{ instances: [] }, undefined, /exactly one/],
    ] as [unknown, string | undefined, RegExp][]) {
      const r = await submit(body, FAKE_GEMINI_VEO_KEY, model);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((await r.json()).error.message).toMatch(why);
    }
    const veo2 = await submit(
      { instances: [{ prompt: 'x' }], parameters: { durationSeconds: 4 } },
      FAKE_GEMINI_VEO_KEY,
      'veo-2.0-generate-001',
    );
    expect((await veo2.json()).error.message).toMatch(/Supported: 5, 6, 7, 8/);
    const notVeo = await submit({ instances: [{ prompt: 'x' }] }, FAKE_GEMINI_VEO_KEY, 'gemini-2.5-flash');
    expect(notVeo.status).toBe(404);
  });

  it('runs a job on its clock, shows it only to its own key, serves the file with that key and Range', async () => {
    const r = await submit({ instances: [{ prompt: 'a cat' }], parameters: { durationSeconds: 4 } });
    const { name } = (await r.json()) as { name: string };
    expect(name).toMatch(/^models\/veo-3\.0-generate-001\/operations\/[0-9a-f]{12}$/);
    const read = (key: string) => fetch(`${veo.url}/v1beta/${name}`, { headers: { 'x-goog-api-key': key } });
    expect(await (await read(FAKE_GEMINI_VEO_KEY)).json()).toEqual({ name });
    expect((await read(FAKE_GEMINI_VEO_KEY_2)).status).toBe(404);
    veo.advance(3 * STEP);
    const done = await (await read(FAKE_GEMINI_VEO_KEY)).json();
    const uri = done.response.generateVideoResponse.generatedSamples[0].video.uri as string;
    expect(uri).toMatch(/\/v1beta\/files\/[0-9a-f]+:download\?alt=media$/);
    expect((await fetch(uri)).status).toBe(403);
    expect((await fetch(uri, { headers: { 'x-goog-api-key': FAKE_GEMINI_VEO_KEY_2 } })).status).toBe(404);
    const file = veo.fileOf(name.split('/').at(-1)!);
    const part = await fetch(`${uri}&key=${FAKE_GEMINI_VEO_KEY}`, { headers: { range: 'bytes=-10' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
    const beyond = await fetch(uri, {
      headers: { 'x-goog-api-key': FAKE_GEMINI_VEO_KEY, range: `bytes=${file.length}-` },
    });
    expect(beyond.status).toBe(416);
  });
});

describe('the Veo fake (Vertex AI) and the adapters against it', () => {
  const MODEL = 'veo-3.1-generate-001';
  const path = `/v1/projects/switchyard-test/locations/us-central1/publishers/google/models/${MODEL}`;

  it('refuses a call without a bearer token it issued, and another project', async () => {
    const none = await post(`${path}:predictLongRunning`, { instances: [{ prompt: 'x' }] });
    expect(none.status).toBe(401);
    expect((await none.json()).error.status).toBe('UNAUTHENTICATED');
    const forged = await post(
      `${path}:predictLongRunning`,
      { instances: [{ prompt: 'x' }] },
      {
        authorization: 'Bearer ya29.made-up',
      },
    );
    expect(forged.status).toBe(401);
  });

  it('writes to Cloud Storage when asked (storageUri) and the Vertex adapter reads it back with Range', async () => {
    const c = call(ChannelType.VertexAI, fakeServiceAccount(veo.url), MODEL, 'us-central1');
    const { upstreamId } = await vertexVideoAdapter.submit(c, {
      model: MODEL,
      prompt: 'a kite',
      seconds: 4,
      extra: { storageUri: 'gs://switchyard-videos/out/' },
    });
    expect(upstreamId).toMatch(
      new RegExp(`^projects/switchyard-test/locations/us-central1/publishers/google/models/${MODEL}/operations/`),
    );
    expect(await vertexVideoAdapter.poll(c, upstreamId)).toMatchObject({ state: 'in_progress' });
    veo.advance(3 * STEP);
    const done = await vertexVideoAdapter.poll(c, upstreamId);
    expect(done.state).toBe('completed');
    expect(done.content?.video).toMatch(/^gs:\/\/switchyard-videos\/out\/[0-9a-f-]+\/sample_0\.mp4$/);
    const job = veo.jobs.get(upstreamId.split('/').at(-1)!)!;
    const whole = await vertexVideoAdapter.content(c, upstreamId, done.content, 'video');
    expect((await bytesOf(whole)).equals(veo.fileOf(job.id))).toBe(true);
    const part = await vertexVideoAdapter.content(c, upstreamId, done.content, 'video', 'bytes=0-7');
    expect(part.status).toBe(206);
    expect((await bytesOf(part)).equals(veo.fileOf(job.id).subarray(0, 8))).toBe(true);
  });

  it("runs a job in Vertex's express mode (an API key, no project in the path)", async () => {
    const c = call(ChannelType.VertexAI, FAKE_VERTEX_API_KEY, MODEL, 'us-central1');
    const { upstreamId } = await vertexVideoAdapter.submit(c, { model: MODEL, prompt: 'snow', seconds: 6 });
    expect(upstreamId).toMatch(new RegExp(`^publishers/google/models/${MODEL}/operations/`));
    expect(veo.requests.at(-1)!.path).toBe(`/v1/publishers/google/models/${MODEL}:predictLongRunning`);
    expect(veo.requests.at(-1)!.headers['x-goog-api-key']).toBe(FAKE_VERTEX_API_KEY);
    veo.advance(3 * STEP);
    const done = await vertexVideoAdapter.poll(c, upstreamId);
    expect(done.state).toBe('completed');
    const file = await vertexVideoAdapter.content(c, upstreamId, done.content, 'video');
    expect((await bytesOf(file)).equals(veo.fileOf(upstreamId.split('/').at(-1)!))).toBe(true);
    const wrong = call(ChannelType.VertexAI, 'AQ.wrong', MODEL);
    // Google's 400 API_KEY_INVALID is the channel's dead key: a 502 naming the channel, not the caller's 400.
    await expect(vertexVideoAdapter.submit(wrong, { model: MODEL, prompt: 'x' })).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('Channel #7'),
    });
  });

  it('serves a seek into an inline Vertex video, and the Gemini adapter refuses what Veo cannot make', async () => {
    const c = call(ChannelType.VertexAI, fakeServiceAccount(veo.url), MODEL, 'us-central1');
    const { upstreamId } = await vertexVideoAdapter.submit(c, { model: MODEL, prompt: 'rain' });
    veo.advance(3 * STEP);
    const done = await vertexVideoAdapter.poll(c, upstreamId);
    const file = veo.fileOf(upstreamId.split('/').at(-1)!);
    const part = await vertexVideoAdapter.content(c, upstreamId, done.content, 'video', 'bytes=100-');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-${file.length - 1}/${file.length}`);
    expect((await bytesOf(part)).equals(file.subarray(100))).toBe(true);

    const g = call(ChannelType.Gemini, FAKE_GEMINI_VEO_KEY, 'veo-3.0-generate-001');
    await expect(geminiVideoAdapter.submit(g, { model: 'x', prompt: 'x', size: '1792x1024' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('1792x1024'),
    });
    // Veo 2's 5 s, carried without a resolution (the model takes none), is accepted by the fake.
    const v2 = call(ChannelType.Gemini, FAKE_GEMINI_VEO_KEY, 'veo-2.0-generate-001');
    await geminiVideoAdapter.submit(v2, { model: 'x', prompt: 'x', seconds: 5, size: '720x1280' });
    expect(veo.requests.at(-1)!.body.parameters).toEqual({ durationSeconds: 5, sampleCount: 1, aspectRatio: '9:16' });
    await expect(
      geminiVideoAdapter.submit(g, { model: 'x', prompt: 'x', resolution: '1080p', seconds: 4 }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('8 seconds only') });
  });
});
