import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ARK_KEY, type FakeArk, startFakeArk } from '../../../../../scripts/fake-upstream/video/ark.ts';
import { type FakeJimeng, startFakeJimeng } from '../../../../../scripts/fake-upstream/video/jimeng.ts';
import { fakeMp4 } from '../../../../../scripts/fake-upstream/video/volc-media.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
} from '../../../../../scripts/fake-upstream/video/volc-signature.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { netCharge, startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * The Jimeng door (/jimeng/?Action=...) and the Volcengine upstreams end to end through a listening
 * gateway and the video service (issue 40): a Jimeng client's job on a Jimeng channel (V4-signed) from
 * submit to a file downloaded with its own token, billed price x seconds; a failed job refunded; the
 * Jimeng client on a Seedance channel (1080p billed x1.666667); the official OpenAI SDK on Jimeng and
 * Seedance channels; refusals in Volcengine's and Jimeng's shapes; another user's task id a 404.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const PRICE = 0.1;
const START = 10_000_000;
const T2V = 'jimeng_vgfm_t2v_l20';
const SEEDANCE = 'doubao-seedance-1-0-pro-250528';
const SUBMIT = '/jimeng/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const RESULT = '/jimeng/?Action=CVSync2AsyncGetResult&Version=2022-08-31';

let h: VideoHarness;
let jimeng: FakeJimeng;
let ark: FakeArk;

beforeAll(async () => {
  h = await startVideoHarness();
  jimeng = await startFakeJimeng({ stepMs: STEP });
  ark = await startFakeArk({ stepMs: STEP });
  // No site address: the file links are on the address the client called, which it downloads from.
  await h.setOptions({ ServerAddress: '', ModelPrice: JSON.stringify({ [T2V]: PRICE, [SEEDANCE]: PRICE }) });
  await h.channel({
    type: ChannelType.Jimeng,
    key: `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`,
    baseUrl: jimeng.url,
    models: [T2V],
  });
  await h.channel({
    type: ChannelType.DoubaoVideo,
    key: FAKE_ARK_KEY,
    baseUrl: ark.url,
    models: [SEEDANCE],
  });
});
afterAll(async () => {
  await h.close();
  await jimeng.close();
  await ark.close();
});

const payer = () => h.payer(START);

// Jimeng and Volcengine answers of several shapes; asserting on them is the type check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; json: any; text: string };

async function call(path: string, key: string | null, body?: unknown, method = 'POST'): Promise<Answer> {
  const res = await fetch(`${h.gateway}${path}`, {
    method,
    headers: {
      // English: the relay answers Chinese by default (issue 45) and these tests read its English wording.
      'accept-language': 'en-US,en;q=0.9',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Files are not JSON.
  }
  return { status: res.status, json, text };
}

/** The upstreams' own names, keys and ids must never reach a client. */
function expectNoUpstream(text: string) {
  for (const secret of [jimeng.url, ark.url, FAKE_VOLC_SECRET_KEY, FAKE_ARK_KEY]) expect(text).not.toContain(secret);
  for (const id of [...jimeng.tasks.keys(), ...ark.tasks.keys()]) expect(text).not.toContain(id);
}

describe('the Jimeng door', () => {
  it('runs a Jimeng job from submit to a downloaded file, charging price x 10 s', async () => {
    const u = await payer();
    const sub = await call(SUBMIT, u.key, { req_key: T2V, prompt: 'a red kite', frames: 241, aspect_ratio: '9:16' });
    expect(sub.status).toBe(200);
    expect(sub.json).toMatchObject({ code: 10000, message: 'Success', status: 10000 });
    expect(typeof sub.json.request_id).toBe('string');
    const id = sub.json.data.task_id as string;
    expectNoUpstream(sub.text);
    expect(jimeng.requests.at(-1)!.body).toMatchObject({ req_key: T2V, frames: 241, aspect_ratio: '9:16' });
    const charge = Math.round(PRICE * 10 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.quota(u)).toBe(START - charge);

    const queued = await call(RESULT, u.key, { req_key: T2V, task_id: id });
    expect(queued.json).toMatchObject({ code: 10000, data: { status: 'in_queue', video_url: '' } });
    jimeng.advance(STEP);
    await h.due(id);
    const running = await call(RESULT, u.key, { req_key: T2V, task_id: id });
    expect(running.json.data.status).toBe('generating');
    jimeng.advance(2 * STEP);
    await h.due(id);
    const done = await call(RESULT, u.key, { req_key: T2V, task_id: id });
    expect(done.json).toMatchObject({ code: 10000, data: { status: 'done' } });
    const url = done.json.data.video_url as string;
    expect(url).toBe(`${h.gateway}/jimeng/videos/${id}/content`);
    expectNoUpstream(done.text);
    expect(await h.quota(u)).toBe(START - charge);

    const upstreamId = [...jimeng.tasks.keys()].at(-1)!;
    const whole = await fetch(url, { headers: { authorization: `Bearer ${u.key}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.equals(fakeMp4(upstreamId))).toBe(true);
    const part = await fetch(url, { headers: { authorization: `Bearer ${u.key}`, range: 'bytes=4-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-7/${bytes.length}`);
    expect(await part.text()).toBe('ftyp');

    // Another user's task id is a 404 on the door's routes; without a token the file is refused.
    const other = await payer();
    const theirs = await call(RESULT, other.key, { req_key: T2V, task_id: id });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toMatchObject({ code: 50404, data: null });
    const theirFile = await call(`/jimeng/videos/${id}/content`, other.key, undefined, 'GET');
    expect(theirFile.status).toBe(404);
    expect((await call(`/jimeng/videos/${id}/content`, null, undefined, 'GET')).status).toBe(401);
  });

  it('refunds a job Jimeng fails in full and answers the failure as Jimeng does (50511, HTTP 400)', async () => {
    const u = await payer();
    const sub = await call(SUBMIT, u.key, { req_key: T2V, prompt: 'this should fail' });
    const id = sub.json.data.task_id as string;
    expect(jimeng.requests.at(-1)!.body).toMatchObject({ frames: 121 });
    expect(await h.quota(u)).toBe(START - Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));
    jimeng.advance(3 * STEP);
    await h.due(id);
    const failed = await call(RESULT, u.key, { req_key: T2V, task_id: id });
    expect(failed.status).toBe(400);
    expect(failed.json).toMatchObject({ code: 50511, data: null });
    expect(failed.json.message).toContain('Post Video Risk Not Pass');
    expect(await h.quota(u)).toBe(START);
    const again = await call(RESULT, u.key, { req_key: T2V, task_id: id });
    expect(again.status).toBe(400);
    expect(await h.quota(u)).toBe(START);
  });

  it('drives a Seedance channel from a Jimeng client, reserving and billing the 1080p it makes by default', async () => {
    const u = await payer();
    const sub = await call(SUBMIT, u.key, { req_key: SEEDANCE, prompt: 'city lights', aspect_ratio: '21:9' });
    expect(sub.status).toBe(200);
    const id = sub.json.data.task_id as string;
    expect(ark.requests.at(-1)!.body).toEqual({
      model: SEEDANCE,
      content: [{ type: 'text', text: 'city lights --rs 1080p --ratio 21:9 --dur 5' }],
    });
    // No resolution asked: reserved at Seedance pro's default, 1080p, which Ark then reports it made,
    // so settlement takes nothing more.
    const charge = Math.round(PRICE * 5 * 1.666667 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.quota(u)).toBe(START - charge);
    ark.advance(3 * STEP);
    await h.due(id);
    const done = await call(RESULT, u.key, { req_key: SEEDANCE, task_id: id });
    expect(done.json.data.status).toBe('done');
    expectNoUpstream(done.text);
    expect(await h.quota(u)).toBe(START - charge);
    const l = await h.ledger(u);
    // One row carries money, the reservation; the settlement row takes nothing more.
    expect(l.logs.map((r) => Number(r.quota)).filter((q) => q !== 0)).toEqual([charge]);
    const file = await fetch(done.json.data.video_url as string, { headers: { authorization: `Bearer ${u.key}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(fakeMp4([...ark.tasks.keys()].at(-1)!))).toBe(true);
  });

  it('the background poller settles a job nobody reads on what Seedance made and refunds a failed Jimeng job; the ledger agrees', async () => {
    const u = await payer();
    const made = await call(SUBMIT, u.key, { req_key: SEEDANCE, prompt: 'harbour at dawn' });
    const lost = await call(SUBMIT, u.key, { req_key: T2V, prompt: 'this should fail' });
    expect([made.status, lost.status]).toEqual([200, 200]);
    ark.advance(3 * STEP);
    jimeng.advance(3 * STEP);
    await h.deps.db.updateTable('tasks').set({ next_poll_at: 0, lease_until: 0 }).execute();
    await h.poll();
    const charge = Math.round(PRICE * 5 * 1.666667 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.quota(u)).toBe(START - charge);
    // Log rows alone explain the balances: charges minus refunds (type 4), nothing still reserved.
    const l = await h.ledger(u);
    const net = netCharge(l.logs);
    expect(net).toBe(charge);
    expect(Number(l.user.used_quota)).toBe(charge);
    expect(Number(l.token?.used_quota)).toBe(charge);
    expect(l.reservations.filter((r) => Number(r.user_id) === u.userId)).toHaveLength(0);
    const again = await call(RESULT, u.key, { req_key: T2V, task_id: lost.json.data.task_id });
    expect(again.json.code).toBe(50511);
  });

  it('answers refusals in Volcengine’s and Jimeng’s shapes with real statuses, and charges nothing', async () => {
    const u = await payer();
    const before = jimeng.requests.length;
    const noAction = await call('/jimeng/?Version=2022-08-31', u.key, { req_key: T2V, prompt: 'x' });
    expect(noAction.status).toBe(400);
    expect(noAction.json.ResponseMetadata).toMatchObject({
      Service: 'cv',
      Error: { Code: 'MissingParameter', CodeN: 100002 },
    });
    const unknown = await call('/jimeng/?Action=CVProcess&Version=2022-08-31', u.key, { req_key: T2V });
    expect(unknown.status).toBe(404);
    expect(unknown.json.ResponseMetadata).toMatchObject({
      Action: 'CVProcess',
      Error: { Code: 'InvalidActionOrVersion' },
    });
    const anon = await call(SUBMIT, null, { req_key: T2V, prompt: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.json.ResponseMetadata.Error).toMatchObject({ Code: 'MissingAuthenticationToken', CodeN: 100003 });
    const badKey = await call(SUBMIT, 'sk-not-a-token', { req_key: T2V, prompt: 'x' });
    expect(badKey.status).toBe(401);
    expect(badKey.json.ResponseMetadata.Error.Code).toBe('InvalidAccessKey');

    const cases: [unknown, string][] = [
      [{ req_key: T2V, prompt: 'x', frames: 100 }, 'frames must be 121 (5 s) or 241 (10 s)'],
      [{ req_key: T2V, prompt: 'x', aspect_ratio: '2:1' }, 'not 2:1'],
      [{ req_key: T2V, prompt: 'x', image_urls: ['https://a/1.png'] }, 'takes no input image'],
      [{ req_key: T2V, prompt: 'x', image_urls: ['https://a/1.png'], binary_data_base64: ['iVBORw=='] }, 'not both'],
      [{ prompt: 'x' }, 'req_key'],
      [{ req_key: T2V }, 'prompt is required'],
    ];
    for (const [body, why] of cases) {
      const r = await call(SUBMIT, u.key, body);
      expect(r.status, why).toBe(400);
      expect(r.json, why).toMatchObject({ code: 50400, status: 50400, data: null });
      expect(r.json.message, why).toContain(why);
    }
    const missing = await call(RESULT, u.key, { req_key: T2V, task_id: 'video_nope' });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(50404);
    expect(jimeng.requests.length).toBe(before);
    expect(await h.quota(u)).toBe(START);
  });

  it('serves the official OpenAI SDK on a Jimeng channel, refusing seconds Jimeng cannot make', async () => {
    const u = await payer();
    const client = h.openai(u);
    await expect(client.videos.create({ model: T2V, prompt: 'a kite', seconds: '8' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('not 8'),
    });
    const job = await client.videos.create({ model: T2V, prompt: 'a kite', size: '1280x720' });
    expect(job.status).toBe('queued');
    expect(jimeng.requests.at(-1)!.body).toMatchObject({ req_key: T2V, aspect_ratio: '16:9', frames: 121 });
    jimeng.advance(3 * STEP);
    await h.due(job.id);
    expect(await client.videos.retrieve(job.id)).toMatchObject({ id: job.id, status: 'completed', seconds: '5' });
    const file = await client.videos.downloadContent(job.id);
    expect(Buffer.from(await file.arrayBuffer()).equals(fakeMp4([...jimeng.tasks.keys()].at(-1)!))).toBe(true);
    expect(await h.quota(u)).toBe(START - Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));
  });

  it('serves the official OpenAI SDK on a Seedance channel, an uploaded input_reference as the first frame', async () => {
    const u = await payer();
    const client = h.openai(u);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const job = await client.videos.create({
      model: SEEDANCE,
      prompt: 'the door opens',
      size: '1280x720',
      input_reference: await toFile(png, 'first.png', { type: 'image/png' }),
    });
    expect(ark.requests.at(-1)!.body).toEqual({
      model: SEEDANCE,
      content: [
        { type: 'text', text: 'the door opens --rs 720p --ratio 16:9 --dur 5' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
          role: 'first_frame',
        },
      ],
    });
    ark.advance(3 * STEP);
    await h.due(job.id);
    expect(await client.videos.retrieve(job.id)).toMatchObject({ status: 'completed', seconds: '5' });
    const file = await client.videos.downloadContent(job.id);
    expect(Buffer.from(await file.arrayBuffer()).equals(fakeMp4([...ark.tasks.keys()].at(-1)!))).toBe(true);
    expect(await h.quota(u)).toBe(START - Math.round(PRICE * 5 * VIDEO_QUOTA_PER_UNIT));
  });
});
