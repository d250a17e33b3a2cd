import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ARK_KEY, type FakeArk, startFakeArk } from '../../../../../scripts/fake-upstream/video/ark.ts';
import { FAKE_MP4 } from '../../../../../scripts/fake-upstream/video/shared.ts';
import { type FakeDashScope, startFakeDashScope } from '../../../../../scripts/fake-upstream/video/dashscope.ts';
import { type FakeJimeng, startFakeJimeng } from '../../../../../scripts/fake-upstream/video/jimeng.ts';
import { type FakeKling, startFakeKling } from '../../../../../scripts/fake-upstream/video/kling.ts';
import { type FakeMiniMax, startFakeMiniMax } from '../../../../../scripts/fake-upstream/video/minimax.ts';
import { type FakeSora, startFakeSora } from '../../../../../scripts/fake-upstream/video/sora.ts';
import {
  FAKE_GEMINI_VEO_KEY,
  type FakeVeo,
  fakeServiceAccount,
  startFakeVeo,
} from '../../../../../scripts/fake-upstream/video/veo.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
} from '../../../../../scripts/fake-upstream/video/volc-signature.ts';
import { type FakeVidu, startFakeVidu } from '../../../../../scripts/fake-upstream/video/vidu.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { LogType } from '../../../../../shared/constants.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * new-api's unified video door (/v1/video/generations) and OpenAI's videos door, end to end through
 * a listening gateway and the video core, on Vidu (52), Ali Wan (17) and MiniMax Hailuo (35) channels
 * pointed at strict fakes of their APIs (issue 40): a job from submit to a video downloaded from the
 * gateway with the caller's own token (Range honoured), billed price x seconds x size multiplier; a
 * failed job refunded in full; what the model cannot make refused with a 400 in OpenAI's shape before
 * anything is charged or sent; another user's task id a 404; no upstream id, host or key in any answer.
 * The new-api door is also driven to every other video upstream's fake (Sora, Kling, Seedance,
 * Jimeng, Veo on Gemini and on Vertex AI): any door reaches any upstream.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const PRICES = {
  viduq1: 0.1,
  'wanx2.1-t2v-turbo': 0.05,
  'MiniMax-Hailuo-02': 0.08,
  'sora-2': 0.1,
  'kling-v2-1': 0.1,
  'doubao-seedance-1-0-pro-250528': 0.1,
  jimeng_vgfm_t2v_l20: 0.1,
  'veo-3.0-generate-001': 0.1,
  'veo-3.1-generate-001': 0.1,
};

let h: VideoHarness;
let vidu: FakeVidu;
let wan: FakeDashScope;
let hailuo: FakeMiniMax;
let sora: FakeSora;
let kling: FakeKling;
let ark: FakeArk;
let jimeng: FakeJimeng;
let veo: FakeVeo;

beforeAll(async () => {
  h = await startVideoHarness();
  [vidu, wan, hailuo] = await Promise.all([
    startFakeVidu({ stepMs: STEP }),
    startFakeDashScope({ stepMs: STEP }),
    startFakeMiniMax({ stepMs: STEP }),
  ]);
  [sora, kling, ark] = await Promise.all([
    startFakeSora({ key: 'sk-sora-upstream', stepMs: STEP }),
    startFakeKling({ stepMs: STEP }),
    startFakeArk({ stepMs: STEP }),
  ]);
  [jimeng, veo] = await Promise.all([startFakeJimeng({ stepMs: STEP }), startFakeVeo({ stepMs: STEP })]);
  await h.setOptions({ ModelPrice: JSON.stringify(PRICES) });
  await h.channel({ type: ChannelType.Vidu, key: vidu.key, baseUrl: vidu.url, models: ['viduq1'] });
  await h.channel({ type: ChannelType.Ali, key: wan.key, baseUrl: wan.url, models: ['wanx2.1-t2v-turbo'] });
  await h.channel({ type: ChannelType.MiniMax, key: hailuo.key, baseUrl: hailuo.url, models: ['MiniMax-Hailuo-02'] });
  await h.channel({ type: ChannelType.Sora, key: 'sk-sora-upstream', baseUrl: sora.url, models: ['sora-2'] });
  await h.channel({
    type: ChannelType.Kling,
    key: `${kling.accessKey}|${kling.secretKey}`,
    baseUrl: kling.url,
    models: ['kling-v2-1'],
  });
  await h.channel({
    type: ChannelType.DoubaoVideo,
    key: FAKE_ARK_KEY,
    baseUrl: ark.url,
    models: ['doubao-seedance-1-0-pro-250528'],
  });
  await h.channel({
    type: ChannelType.Jimeng,
    key: `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`,
    baseUrl: jimeng.url,
    models: ['jimeng_vgfm_t2v_l20'],
  });
  await h.channel({
    type: ChannelType.Gemini,
    key: FAKE_GEMINI_VEO_KEY,
    baseUrl: veo.url,
    models: ['veo-3.0-generate-001'],
  });
  await h.channel({
    type: ChannelType.VertexAI,
    key: fakeServiceAccount(veo.url),
    baseUrl: veo.url,
    other: 'us-central1',
    models: ['veo-3.1-generate-001'],
  });
});
afterAll(async () => {
  await h.close();
  await Promise.all([vidu?.close(), wan?.close(), hailuo?.close(), sora?.close(), kling?.close(), ark?.close()]);
  await Promise.all([jimeng?.close(), veo?.close()]);
});

/** Reads the task through the door after each fake step until it ends; the statuses seen in order. */
async function follow(key: string, id: string, advance: (ms: number) => void) {
  const seen: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let last: any;
  for (let i = 0; i < 24; i++) {
    await h.due(id);
    const res = await h.call('GET', `/v1/video/generations/${id}`, key);
    expect(res.status).toBe(200);
    last = res.json;
    if (seen.at(-1) !== last.status) seen.push(last.status);
    if (last.status === 'completed' || last.status === 'failed') break;
    advance(STEP);
  }
  return { seen, last };
}

/** No upstream's host, key or task id anywhere in what a client read. */
function expectNothingUpstream(text: string, upstreamIds: string[]) {
  for (const secret of [
    vidu.url,
    wan.url,
    hailuo.url,
    '127.0.0.1:' + new URL(vidu.url).port,
    vidu.key,
    wan.key,
    hailuo.key,
  ])
    expect(text).not.toContain(secret);
  for (const id of upstreamIds) expect(text).not.toContain(id);
}

describe('new-api door /v1/video/generations', () => {
  it('Vidu: submit, poll to completed, download from the gateway with the same token (Range), charged price x 5 s x the 1080p multiplier', async () => {
    const payer = await h.payer();
    const start = await h.quota(payer);
    const sub = await h.call('POST', '/v1/video/generations', payer.key, {
      model: 'viduq1',
      prompt: 'a lighthouse in fog',
      size: '1080p',
      metadata: { movement_amplitude: 'small' },
    });
    expect(sub.status).toBe(200);
    expect(sub.json).toMatchObject({ object: 'video', model: 'viduq1', status: 'queued', seconds: '5' });
    const id: string = sub.json.task_id;
    expect(sub.json.id).toBe(id);
    const upstreamIds = [...vidu.tasks.keys()];
    expect(upstreamIds).not.toContain(id);
    // Vidu got the request in its own words, including the metadata the client meant for it.
    expect(vidu.requests.at(-1)!.body).toMatchObject({
      model: 'viduq1',
      duration: 5,
      resolution: '1080p',
      movement_amplitude: 'small',
    });

    const charge = Math.round(PRICES.viduq1 * 5 * 1.666667 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.quota(payer)).toBe(start - charge);

    const { seen, last } = await follow(payer.key, id, vidu.advance);
    expect(seen).toEqual(['queued', 'in_progress', 'completed']);
    expect(last).toMatchObject({
      task_id: id,
      status: 'completed',
      format: 'mp4',
      url: `https://gw.example.com/v1/videos/${id}/content`,
      metadata: { duration: 5, width: 1920, height: 1080 },
      error: null,
    });
    expectNothingUpstream(JSON.stringify([sub.json, last]), upstreamIds);

    const path = new URL(last.url).pathname;
    const file = await fetch(`${h.gateway}${path}`, { headers: { authorization: `Bearer ${payer.key}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(FAKE_MP4)).toBe(true);
    const part = await fetch(`${h.gateway}${path}`, {
      headers: { authorization: `Bearer ${payer.key}`, range: 'bytes=0-31' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-31/${FAKE_MP4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(FAKE_MP4.subarray(0, 32))).toBe(true);

    // Settled once at the reserved price: the ledger agrees with the balance.
    const l = await h.ledger(payer);
    expect(Number(l.user.quota)).toBe(start - charge);
    expect(l.logs.filter((r) => r.type === LogType.System)).toHaveLength(0);
    expect(l.logQuota).toBe(charge);

    // Another user sees neither the task nor its file.
    const other = await h.payer();
    const peek = await h.call('GET', `/v1/video/generations/${id}`, other.key);
    expect(peek.status).toBe(404);
    expect(peek.json.error).toMatchObject({ type: 'invalid_request_error', code: 'task_not_exist' });
    const steal = await fetch(`${h.gateway}${path}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(steal.status).toBe(404);
  });

  it('MiniMax Hailuo: 10 s at 768p (size "768p"), the frame Hailuo reports, the file fetched by its id through the gateway', async () => {
    const payer = await h.payer();
    const start = await h.quota(payer);
    const sub = await h.call('POST', '/v1/video/generations', payer.key, {
      model: 'MiniMax-Hailuo-02',
      prompt: 'a kite over dunes',
      duration: 10,
      size: '768p',
    });
    expect(sub.status).toBe(200);
    const id: string = sub.json.task_id;
    expect(hailuo.requests.at(-1)!.body).toEqual({
      model: 'MiniMax-Hailuo-02',
      prompt: 'a kite over dunes',
      duration: 10,
      resolution: '768P',
    });
    const { last } = await follow(payer.key, id, hailuo.advance);
    expect(last).toMatchObject({ status: 'completed', metadata: { duration: 10, width: 1366, height: 768 } });
    const file = await fetch(`${h.gateway}${new URL(last.url).pathname}`, {
      headers: { authorization: `Bearer ${payer.key}` },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(FAKE_MP4)).toBe(true);
    expect(await h.quota(payer)).toBe(start - Math.round(PRICES['MiniMax-Hailuo-02'] * 10 * VIDEO_QUOTA_PER_UNIT));
    expectNothingUpstream(JSON.stringify([sub.json, last]), [...hailuo.tasks.keys()]);
  });

  it("Ali Wan: a failed job shows DashScope's reason and is refunded in full, once", async () => {
    const payer = await h.payer();
    const start = await h.quota(payer);
    const sub = await h.call('POST', '/v1/video/generations', payer.key, {
      model: 'wanx2.1-t2v-turbo',
      prompt: 'this should fail',
      width: 1280,
      height: 720,
    });
    expect(sub.status).toBe(200);
    expect(wan.requests.at(-1)!.body).toMatchObject({ parameters: { size: '1280*720', duration: 5 } });
    const reserved = Math.round(PRICES['wanx2.1-t2v-turbo'] * 5 * VIDEO_QUOTA_PER_UNIT);
    expect(await h.quota(payer)).toBe(start - reserved);
    const { last } = await follow(payer.key, sub.json.task_id, wan.advance);
    expect(last.status).toBe('failed');
    expect(last.url).toBe('');
    expect(last.error.message).toContain('DataInspectionFailed');
    expect(await h.quota(payer)).toBe(start);
    // Read again and polled again: still one refund.
    await h.due(sub.json.task_id);
    await h.poll();
    await h.call('GET', `/v1/video/generations/${sub.json.task_id}`, payer.key);
    const l = await h.ledger(payer);
    expect(Number(l.user.quota)).toBe(start);
    // The refund is one system row carrying the amount given back.
    const refunds = l.logs.filter((r) => r.type === LogType.System);
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0].quota)).toBe(reserved);
  });

  it("refuses with a 400 in OpenAI's shape, charging and sending nothing: a duration the model cannot make, an unknown field, n > 1, three images", async () => {
    const payer = await h.payer();
    const start = await h.quota(payer);
    const sent = vidu.requests.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ model: 'viduq1', prompt: 'x', duration: 8 }, 'viduq1 makes videos of 5 seconds, not 8'],
      [{ model: 'viduq1', prompt: 'x', style: 'anime' }, "Unknown parameter: 'style'"],
      [{ model: 'viduq1', prompt: 'x', n: 2 }, 'n must be 1'],
      [{ model: 'viduq1', prompt: 'x', images: ['https://a/1.png', 'https://a/2.png', 'https://a/3.png'] }, 'not 3'],
      [{ model: 'viduq1', prompt: 'x', duration: 5, seconds: '4' }, 'disagree'],
      [{ prompt: 'x' }, "Missing required parameter: 'model'"],
    ];
    for (const [body, words] of cases) {
      const res = await h.call('POST', '/v1/video/generations', payer.key, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.type).toBe('invalid_request_error');
      expect(res.json.error.message).toContain(words);
    }
    expect(vidu.requests.length).toBe(sent);
    expect(await h.quota(payer)).toBe(start);
    const anon = await h.call('POST', '/v1/video/generations', null, { model: 'viduq1', prompt: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.json.error).toBeTruthy();
  });

  it('first and last frames in images[] reach Vidu as start-end2video', async () => {
    const payer = await h.payer();
    const res = await h.call('POST', '/v1/video/generations', payer.key, {
      model: 'viduq1',
      prompt: 'sunrise to sunset',
      images: ['https://img.example.com/a.png', 'https://img.example.com/b.png'],
    });
    expect(res.status).toBe(200);
    const sent = vidu.requests.at(-1)!;
    expect(sent.path).toBe('/ent/v2/start-end2video');
    expect(sent.body.images).toEqual(['https://img.example.com/a.png', 'https://img.example.com/b.png']);
  });
});

describe('new-api door to the other video upstreams', () => {
  const cases = [
    { name: 'Sora', model: 'sora-2', duration: 8, size: '1280x720', advance: (ms: number) => sora.advance(ms) },
    { name: 'Kling', model: 'kling-v2-1', duration: 10, size: '720p', advance: (ms: number) => kling.advance(ms) },
    {
      name: 'Seedance',
      model: 'doubao-seedance-1-0-pro-250528',
      duration: 5,
      size: '720p',
      advance: (ms: number) => ark.advance(ms),
    },
    {
      name: 'Jimeng',
      model: 'jimeng_vgfm_t2v_l20',
      duration: 5,
      size: '720p',
      advance: (ms: number) => jimeng.advance(ms),
    },
    {
      name: 'Veo',
      model: 'veo-3.0-generate-001',
      duration: 8,
      size: '1280x720',
      advance: (ms: number) => veo.advance(ms),
    },
    {
      name: 'Vertex Veo',
      model: 'veo-3.1-generate-001',
      duration: 8,
      size: '1280x720',
      advance: (ms: number) => veo.advance(ms),
    },
  ];
  for (const c of cases)
    it(`${c.name}: submit, poll to completed, download from the gateway, charged price x seconds`, async () => {
      const payer = await h.payer();
      const start = await h.quota(payer);
      const sub = await h.call('POST', '/v1/video/generations', payer.key, {
        model: c.model,
        prompt: `a red balloon over a city (${c.name})`,
        duration: c.duration,
        size: c.size,
      });
      expect(sub.status, JSON.stringify(sub.json)).toBe(200);
      expect(await h.quota(payer)).toBe(start - Math.round(0.1 * c.duration * VIDEO_QUOTA_PER_UNIT));
      const { seen, last } = await follow(payer.key, sub.json.task_id, c.advance);
      expect(seen.at(-1)).toBe('completed');
      expect(last.metadata.duration).toBe(c.duration);
      const file = await fetch(`${h.gateway}${new URL(last.url).pathname}`, {
        headers: { authorization: `Bearer ${payer.key}`, range: 'bytes=0-15' },
      });
      expect(file.status).toBe(206);
      expect(
        Buffer.from(await file.arrayBuffer())
          .subarray(4, 8)
          .toString('latin1'),
      ).toBe('ftyp');
    });
});

describe('OpenAI SDK on the Asian upstreams', () => {
  it('videos.create / retrieve / downloadContent on a Vidu channel, and a Wan refusal worded for the client', async () => {
    const payer = await h.payer();
    const openai = h.openai(payer);
    const created = await openai.videos.create({
      model: 'viduq1' as 'sora-2',
      prompt: 'origami cranes taking off',
      seconds: '5' as '4',
      size: '1920x1080' as '1280x720',
    });
    expect(created.status).toBe('queued');
    expect([...vidu.tasks.keys()]).not.toContain(created.id);
    let v = created;
    for (let i = 0; i < 8 && v.status !== 'completed'; i++) {
      vidu.advance(STEP);
      await h.due(created.id);
      v = await openai.videos.retrieve(created.id);
    }
    expect(v).toMatchObject({ status: 'completed', seconds: '5', size: '1920x1080' });
    const content = await openai.videos.downloadContent(created.id);
    expect(Buffer.from(await content.arrayBuffer()).equals(FAKE_MP4)).toBe(true);

    const err = await openai.videos
      .create({ model: 'wanx2.1-t2v-turbo' as 'sora-2', prompt: 'x', size: '1024x1792' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('not 1024x1792');
  });
});
