import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import { createTestApp, type TestApp } from '../../../../../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../../../../test/relay-fixtures.ts';
import { taskPollerOf, videoPollerOf } from '../../routes.ts';

/*
 * OpenAI's videos door (issue 40) driven by the official `openai` SDK v6 against a gateway whose
 * Sora channel (type 55) points at the strict fake of OpenAI's videos API: create (multipart with a
 * file, JSON with an image URL), retrieve until completed, downloadContent (bytes, Range, variants),
 * list pages, remix, delete, isolation between users, refusals and a failed job, all with the
 * gateway's own ids.
 */

/** One fake step; the clock jumps (Date only) so nothing waits on a busy machine's wall clock. */
const STEP_MS = 5_000;
const PAST_WHOLE_JOB_MS = 12 * STEP_MS;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let t: TestApp;
let sora: FakeSora;
let gateway: string;

/** Moves the gateway's and the fake's clocks together (a read refreshes a job older than a few seconds). */
const later = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms));

async function client(quota = 100_000_000) {
  const u = await insertUser(t.deps, { quota });
  const tok = await insertToken(t.deps, u.id, { unlimited: true });
  return {
    userId: u.id,
    key: tok.key,
    // In English: the relay answers Chinese by default (issue 45) and these tests read its English wording.
    openai: new OpenAI({
      apiKey: tok.key,
      baseURL: `${gateway}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'accept-language': 'en-US,en;q=0.9' },
    }),
  };
}

/** The fake's job for a prompt (prompts are unique per test). */
const upstreamOf = (prompt: string) => [...sora.videos.values()].find((v) => v.prompt === prompt)!;

const raw = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${gateway}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

beforeAll(async () => {
  t = await createTestApp();
  sora = await startFakeSora({ key: 'sk-sora-upstream', stepMs: STEP_MS });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  gateway = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Deterministic: jobs move when a test reads them, never on the pollers' timers.
  await taskPollerOf(t.deps)?.stop();
  await videoPollerOf(t.deps)?.stop();
  await setOptions(t.deps, { ModelPrice: JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3 }) });
  await insertChannel(t.deps, {
    type: 55,
    key: 'sk-sora-upstream',
    baseUrl: sora.url,
    models: ['sora-2', 'sora-2-pro'],
  });
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
});
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
  await sora?.close();
});

describe('OpenAI videos door (/v1/videos) with the openai SDK', () => {
  it('creates from an uploaded image (multipart), reports progress, completes and downloads the bytes the upstream made', async () => {
    const { openai, key } = await client();
    const prompt = 'a paper boat on a river';
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt,
      seconds: '8',
      size: '1280x720',
      input_reference: await toFile(PNG, 'frame.png', { type: 'image/png' }),
    });
    const up = upstreamOf(prompt);
    expect(created).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      seconds: '8',
      size: '1280x720',
    });
    expect(created.id).toMatch(/^video_/);
    expect(created.id).not.toBe(up.id);
    expect(up.inputReference?.mime).toBe('image/png');
    expect(up.inputReference?.bytes?.equals(PNG)).toBe(true);
    expect(sora.requests.at(-1)!.headers.authorization).toBe('Bearer sk-sora-upstream');

    later(4 * STEP_MS);
    const running = await openai.videos.retrieve(created.id);
    expect(running).toMatchObject({ id: created.id, status: 'in_progress' });
    expect(running.progress).toBeGreaterThan(0);

    later(PAST_WHOLE_JOB_MS);
    const done = await openai.videos.retrieve(created.id);
    expect(done).toMatchObject({ id: created.id, status: 'completed', progress: 100, seconds: '8', error: null });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    // The upstream's id, host and key never reach the client.
    const seen = JSON.stringify([created, running, done]);
    for (const secret of [up.id, sora.url, 'sk-sora-upstream']) expect(seen).not.toContain(secret);

    const res = await openai.videos.downloadContent(created.id);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(sora.contentOf(up.id))).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));

    // A player seeks with Range: the door passes it through and answers 206.
    const part = await raw(`/v1/videos/${created.id}/content`, key, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 30))).toBe(true);

    const thumb = await openai.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumb.arrayBuffer()).equals(sora.contentOf(up.id, 'thumbnail'))).toBe(true);
  });

  it('creates from JSON with input_reference.image_url, and the model default and sizes of the request', async () => {
    const { key } = await client();
    const prompt = 'a lighthouse at dusk';
    const res = await raw('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, size: '720x1280', input_reference: { image_url: 'https://img.example/l.png' } }),
    });
    expect(res.status).toBe(200);
    const v = (await res.json()) as OpenAI.Videos.Video;
    expect(v).toMatchObject({ object: 'video', model: 'sora-2', seconds: '4', size: '720x1280', status: 'queued' });
    expect(upstreamOf(prompt)).toMatchObject({
      model: 'sora-2',
      seconds: '4',
      inputReference: { url: 'https://img.example/l.png' },
    });

    // The SDK sends the same object inside its multipart form (input_reference[image_url]).
    const { openai } = await client();
    await openai.videos.create({
      prompt: 'a lighthouse by day',
      input_reference: { image_url: 'https://img.example/d.png' },
    });
    expect(upstreamOf('a lighthouse by day').inputReference).toEqual({ url: 'https://img.example/d.png' });
  });

  it('refuses, saying why, a duration the model does not make, a size it does not render and an unknown parameter', async () => {
    const { openai, key } = await client();
    const before = sora.requests.length;
    const seven = await openai.videos
      .create({ model: 'sora-2', prompt: 'seven seconds', seconds: '7' as '4' })
      .catch((e: unknown) => e);
    expect(seven).toBeInstanceOf(OpenAI.BadRequestError);
    expect((seven as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/4, 8.*12/);
    const big = await openai.videos
      .create({ model: 'sora-2', prompt: 'too big', size: '1792x1024' })
      .catch((e: unknown) => e);
    expect(big).toBeInstanceOf(OpenAI.BadRequestError);
    expect((big as Error).message).toMatch(/1792x1024/);
    const odd = await raw('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', fps: 60 }),
    });
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'unknown_parameter', param: null },
    });
    expect(sora.requests.length).toBe(before);
    // The SDK's edit and extend calls are refused by name, not with a bare "Invalid URL".
    const edit = await openai.videos.edit({ prompt: 'x', video: { id: 'video_123' } }).catch((e: unknown) => e);
    expect(edit).toBeInstanceOf(OpenAI.NotFoundError);
    expect((edit as Error).message).toMatch(/Video edits \(videos.edit\) are not supported/);
    const anon = await fetch(`${gateway}/v1/videos`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ error: { type: 'authentication_error' } });
  });

  it('a failed job shows its reason and cannot be downloaded', async () => {
    const { openai } = await client();
    const created = await openai.videos.create({ model: 'sora-2', prompt: 'please FAIL this one' });
    later(PAST_WHOLE_JOB_MS);
    const v = await openai.videos.retrieve(created.id);
    expect(v.status).toBe('failed');
    expect(v.error?.message).toMatch(/asked the fake to fail/);
    await expect(openai.videos.downloadContent(created.id)).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('lists the caller own jobs page by page, newest first', async () => {
    const { openai, key } = await client();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await openai.videos.create({ model: 'sora-2', prompt: `list job ${n}` })).id);
    const first = (await (await raw('/v1/videos?limit=2', key)).json()) as {
      object: string;
      data: OpenAI.Videos.Video[];
      first_id: string;
      last_id: string;
      has_more: boolean;
    };
    expect(first).toMatchObject({ object: 'list', has_more: true, first_id: ids[2], last_id: ids[1] });
    expect(first.data.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    const rest = await openai.videos.list({ limit: 2, after: first.last_id });
    expect(rest.data.map((v) => v.id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
    const all: string[] = [];
    for await (const v of openai.videos.list({ limit: 1, order: 'asc' })) all.push(v.id);
    expect(all).toEqual(ids);
  });

  it('remixes a completed video into a new job of its own id, and deletes a video', async () => {
    const { openai } = await client();
    const origin = await openai.videos.create({ model: 'sora-2', prompt: 'a red kite' });
    later(PAST_WHOLE_JOB_MS);
    expect((await openai.videos.retrieve(origin.id)).status).toBe('completed');
    const remix = await openai.videos.remix(origin.id, { prompt: 'a blue kite' });
    expect(remix).toMatchObject({ object: 'video', remixed_from_video_id: origin.id, status: 'queued' });
    expect(remix.id).not.toBe(origin.id);
    expect(upstreamOf('a blue kite').remixedFrom).toBe(upstreamOf('a red kite').id);

    const gone = await openai.videos.delete(origin.id);
    expect(gone).toEqual({ id: origin.id, object: 'video.deleted', deleted: true });
    await expect(openai.videos.retrieve(origin.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("the token's model limits, IP allow-list and rate limit apply at submit, before the upstream is asked", async () => {
    const u = await insertUser(t.deps, { quota: 100_000_000 });
    const sdk = async (o: Parameters<typeof insertToken>[2]) =>
      new OpenAI({ apiKey: (await insertToken(t.deps, u.id, o)).key, baseURL: `${gateway}/v1`, maxRetries: 0 });
    const before = sora.requests.length;

    const proOnly = await sdk({ unlimited: true, modelLimits: ['sora-2-pro'] });
    const limited = await proOnly.videos.create({ model: 'sora-2', prompt: 'not my model' }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.APIError);
    expect((limited as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    expect((limited as Error).message).toMatch(/sora-2/);

    const elsewhere = await sdk({ unlimited: true, allowIps: '10.9.9.9' });
    const ip = await elsewhere.videos.create({ model: 'sora-2', prompt: 'wrong ip' }).catch((e: unknown) => e);
    expect(ip).toBeInstanceOf(OpenAI.APIError);
    expect((ip as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    expect(sora.requests.length).toBe(before);

    const two = await sdk({ unlimited: true, rateLimit: { period: 60, count: 2, success: 100 } });
    await two.videos.create({ model: 'sora-2', prompt: 'rate 1' });
    await two.videos.create({ model: 'sora-2', prompt: 'rate 2' });
    const third = await two.videos.create({ model: 'sora-2', prompt: 'rate 3' }).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(OpenAI.RateLimitError);
    expect((third as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toMatch(/^\d+$/);
    expect(upstreamOf('rate 3')).toBeUndefined();
  });

  it("another user's video answers 404 on every route and is not listed", async () => {
    const owner = await client();
    const other = await client();
    const v = await owner.openai.videos.create({ model: 'sora-2', prompt: 'private garden' });
    later(PAST_WHOLE_JOB_MS);
    expect((await owner.openai.videos.retrieve(v.id)).status).toBe('completed');
    const o = other.openai.videos;
    for (const attempt of [
      () => o.retrieve(v.id),
      () => o.downloadContent(v.id),
      () => o.remix(v.id, { prompt: 'steal it' }),
      () => o.delete(v.id),
    ])
      await expect(attempt()).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await o.list()).data.map((x) => x.id)).not.toContain(v.id);
    // Still the owner's, untouched.
    expect((await owner.openai.videos.retrieve(v.id)).status).toBe('completed');
  });
});
