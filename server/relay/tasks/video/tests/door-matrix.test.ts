import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GenerateVideosConfig, type GenerateVideosOperation, GoogleGenAI } from '@google/genai';
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
import { type FakeVidu, startFakeVidu } from '../../../../../scripts/fake-upstream/video/vidu.ts';
import { fakeMp4 as volcMp4 } from '../../../../../scripts/fake-upstream/video/volc-media.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
} from '../../../../../scripts/fake-upstream/video/volc-signature.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness, type VideoPayer } from './harness.ts';

/*
 * The rest of docs/conformance.md's video matrix (issue 40): the Kling door, the Jimeng door and
 * Google's Veo door (driven by the real @google/genai client) each to every video upstream's strict
 * fake that no other test drives them to, through one listening gateway. Each pair: a submit in the
 * door's own shape, polled through the door until done, the file downloaded through the door's own
 * link with the caller's key (whole, byte for byte, and a Range), and the charge price x seconds x
 * the size multiplier, by the log rows, the wallet and the token alike. Where the door's usual
 * request is something the upstream model does not make (Kling's 5 s on Hailuo or Veo, Jimeng's
 * 121/241 frames on Sora or Veo, Veo's 8 s on Hailuo) the request goes without it and the model's
 * default applies; one such request per door is shown refused with a 400 in the door's shape,
 * saying why, charging nothing.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const INITIAL = 10_000_000;
const SERVER = 'https://gw.example.com';
const HD = 1.666667;
const VIDU_15 = 'vidu1.5';

let h: VideoHarness;
let sora: FakeSora;
let kling: FakeKling;
let jimeng: FakeJimeng;
let ark: FakeArk;
let vidu: FakeVidu;
let wan: FakeDashScope;
let hailuo: FakeMiniMax;
let veo: FakeVeo;
let dir: string;

type UpstreamId = 'sora' | 'kling' | 'jimeng' | 'seedance' | 'vidu' | 'wan' | 'hailuo' | 'veo' | 'vertex-veo';

interface Upstream {
  model: string;
  /** USD per second: a different one per upstream, so a charge on the wrong model shows. */
  price: number;
  advance(ms: number): void;
  /** The upstream's bytes of the newest job it took. */
  file(): Buffer;
}

const last = <T>(m: Map<string, T>) => [...m.keys()].at(-1)!;

const UPSTREAMS: Record<UpstreamId, Upstream> = {
  sora: {
    model: 'sora-2',
    price: 0.1,
    advance: (ms) => sora.advance(ms),
    file: () => sora.contentOf(last(sora.videos)),
  },
  kling: { model: 'kling-v2-1', price: 0.11, advance: (ms) => kling.advance(ms), file: () => kling.mp4 },
  jimeng: {
    model: 'jimeng_vgfm_t2v_l20',
    price: 0.12,
    advance: (ms) => jimeng.advance(ms),
    file: () => volcMp4(last(jimeng.tasks)),
  },
  seedance: {
    model: 'doubao-seedance-1-0-pro-250528',
    price: 0.13,
    advance: (ms) => ark.advance(ms),
    file: () => volcMp4(last(ark.tasks)),
  },
  vidu: { model: 'viduq1', price: 0.14, advance: (ms) => vidu.advance(ms), file: () => FAKE_MP4 },
  wan: { model: 'wanx2.1-t2v-turbo', price: 0.05, advance: (ms) => wan.advance(ms), file: () => FAKE_MP4 },
  hailuo: { model: 'MiniMax-Hailuo-02', price: 0.08, advance: (ms) => hailuo.advance(ms), file: () => FAKE_MP4 },
  veo: {
    model: 'veo-3.0-generate-001',
    price: 0.15,
    advance: (ms) => veo.advance(ms),
    file: () => veo.fileOf(last(veo.jobs)),
  },
  'vertex-veo': {
    model: 'veo-3.1-generate-001',
    price: 0.16,
    advance: (ms) => veo.advance(ms),
    file: () => veo.fileOf(last(veo.jobs)),
  },
};

beforeAll(async () => {
  h = await startVideoHarness();
  [sora, kling, jimeng, ark] = await Promise.all([
    startFakeSora({ key: 'sk-sora-upstream', stepMs: STEP }),
    startFakeKling({ stepMs: STEP }),
    startFakeJimeng({ stepMs: STEP }),
    startFakeArk({ stepMs: STEP }),
  ]);
  [vidu, wan, hailuo, veo] = await Promise.all([
    startFakeVidu({ stepMs: STEP }),
    startFakeDashScope({ stepMs: STEP }),
    startFakeMiniMax({ stepMs: STEP }),
    startFakeVeo({ stepMs: STEP }),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'door-matrix-'));
  await h.setOptions({
    ModelPrice: JSON.stringify({
      ...Object.fromEntries(Object.values(UPSTREAMS).map((u) => [u.model, u.price])),
      [VIDU_15]: UPSTREAMS.vidu.price,
    }),
  });
  const u = UPSTREAMS;
  await h.channel({ type: ChannelType.Sora, key: 'sk-sora-upstream', baseUrl: sora.url, models: [u.sora.model] });
  await h.channel({
    type: ChannelType.Kling,
    key: `${kling.accessKey}|${kling.secretKey}`,
    baseUrl: kling.url,
    models: [u.kling.model],
  });
  await h.channel({
    type: ChannelType.Jimeng,
    key: `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`,
    baseUrl: jimeng.url,
    models: [u.jimeng.model],
  });
  await h.channel({ type: ChannelType.DoubaoVideo, key: FAKE_ARK_KEY, baseUrl: ark.url, models: [u.seedance.model] });
  await h.channel({ type: ChannelType.Vidu, key: vidu.key, baseUrl: vidu.url, models: [u.vidu.model, VIDU_15] });
  await h.channel({ type: ChannelType.Ali, key: wan.key, baseUrl: wan.url, models: [u.wan.model] });
  await h.channel({ type: ChannelType.MiniMax, key: hailuo.key, baseUrl: hailuo.url, models: [u.hailuo.model] });
  await h.channel({ type: ChannelType.Gemini, key: FAKE_GEMINI_VEO_KEY, baseUrl: veo.url, models: [u.veo.model] });
  await h.channel({
    type: ChannelType.VertexAI,
    key: fakeServiceAccount(veo.url),
    baseUrl: veo.url,
    other: 'us-central1',
    models: [u['vertex-veo'].model],
  });
});
afterAll(async () => {
  await h?.close();
  await Promise.all([sora, kling, jimeng, ark, vidu, wan, hailuo, veo].map((f) => f?.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** price.ts's rule: ModelPrice x size multiplier x seconds x group ratio (1) x QuotaPerUnit. */
const quotaFor = (price: number, seconds: number, multiplier: number) =>
  Math.round(price * multiplier * seconds * VIDEO_QUOTA_PER_UNIT);

/** The door's link as the client follows it (links name ServerAddress; the test's gateway listens elsewhere). */
const onGateway = (url: string) => url.replace(SERVER, h.gateway);

/** No upstream host or upstream task id in anything a client read. */
function expectNoUpstream(value: unknown) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const f of [sora, kling, jimeng, ark, vidu, wan, hailuo, veo]) expect(text).not.toContain(f.url);
  for (const m of [sora.videos, kling.tasks, jimeng.tasks, ark.tasks, vidu.tasks, wan.tasks, hailuo.tasks, veo.jobs])
    for (const id of m.keys()) expect(text).not.toContain(id);
}

/** The whole file and a player's Range of it, through the door's link with the caller's key. */
async function download(link: string, headers: Record<string, string>): Promise<Buffer> {
  const whole = await fetch(link, { headers });
  expect(whole.status).toBe(200);
  expect(whole.headers.get('content-type')).toBe('video/mp4');
  const bytes = Buffer.from(await whole.arrayBuffer());
  const part = await fetch(link, { headers: { ...headers, range: 'bytes=4-7' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 4-7/${bytes.length}`);
  expect(await part.text()).toBe('ftyp');
  return bytes;
}

/** One door: submit in its shape, read through it after each fake step until done, download through its link. */
interface Door {
  run(p: VideoPayer, up: Upstream, ask: Record<string, unknown>): Promise<Buffer>;
}

const POLLS = 30;

const KLING_DOOR: Door = {
  async run(p, up, ask) {
    const sub = await h.call('POST', '/kling/v1/videos/text2video', p.key, {
      model_name: up.model,
      prompt: `a paper boat on a river (${up.model})`,
      ...ask,
    });
    expect(sub.status, JSON.stringify(sub.json)).toBe(200);
    expect(sub.json).toMatchObject({ code: 0, message: 'SUCCEED' });
    // Veo's operation has no queued state: it is running from the submit on.
    expect(['submitted', 'processing']).toContain(sub.json.data.task_status);
    const id = sub.json.data.task_id as string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let data: any;
    for (let i = 0; i < POLLS; i++) {
      up.advance(STEP);
      await h.due(id);
      const r = await h.call('GET', `/kling/v1/videos/text2video/${id}`, p.key);
      expect(r.json.code).toBe(0);
      data = r.json.data;
      expect(['submitted', 'processing', 'succeed']).toContain(data.task_status);
      if (data.task_status === 'succeed') break;
    }
    expect(data).toMatchObject({ task_id: id, task_status: 'succeed' });
    expectNoUpstream([sub.json, data]);
    const url = data.task_result.videos[0].url as string;
    expect(url).toBe(`${SERVER}/kling/v1/videos/${id}/content`);
    return download(onGateway(url), { authorization: `Bearer ${p.key}` });
  },
};

const SUBMIT = '/jimeng/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const RESULT = '/jimeng/?Action=CVSync2AsyncGetResult&Version=2022-08-31';

const JIMENG_DOOR: Door = {
  async run(p, up, ask) {
    const sub = await h.call('POST', SUBMIT, p.key, {
      req_key: up.model,
      prompt: `a red kite over a field (${up.model})`,
      ...ask,
    });
    expect(sub.status, JSON.stringify(sub.json)).toBe(200);
    expect(sub.json).toMatchObject({ code: 10000, message: 'Success' });
    const id = sub.json.data.task_id as string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let data: any;
    for (let i = 0; i < POLLS; i++) {
      up.advance(STEP);
      await h.due(id);
      const r = await h.call('POST', RESULT, p.key, { req_key: up.model, task_id: id });
      expect(r.json.code).toBe(10000);
      data = r.json.data;
      expect(['in_queue', 'generating', 'done']).toContain(data.status);
      if (data.status === 'done') break;
    }
    expect(data.status).toBe('done');
    expectNoUpstream([sub.json, data]);
    const url = data.video_url as string;
    expect(url).toBe(`${SERVER}/jimeng/videos/${id}/content`);
    return download(onGateway(url), { authorization: `Bearer ${p.key}` });
  },
};

// English: the relay answers Chinese by default (issue 45) and these tests read its English wording.
const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };
const google = (key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.gateway, headers: ENGLISH } });

const GOOGLE_DOOR: Door = {
  async run(p, up, ask) {
    const ai = google(p.key);
    let op: GenerateVideosOperation = await ai.models.generateVideos({
      model: up.model,
      prompt: `a lighthouse in a storm (${up.model})`,
      config: ask as GenerateVideosConfig,
    });
    expect(op.name).toMatch(new RegExp(`^models/${up.model}/operations/video_[0-9a-f]{32}$`));
    const id = op.name!.split('/operations/')[1];
    for (let i = 0; i < POLLS && !op.done; i++) {
      up.advance(STEP);
      await h.due(id);
      op = await ai.operations.getVideosOperation({ operation: op });
    }
    expect(op.done).toBe(true);
    expect(op.error).toBeUndefined();
    expectNoUpstream(op);
    const sample = op.response!.generatedVideos![0];
    const uri = sample.video!.uri!;
    expect(uri).toBe(`${SERVER}/v1beta/files/${id.replace('video_', '')}:download?alt=media`);
    // The SDK's own download (it reads the file name from the uri and asks its baseUrl, the gateway).
    const path = join(dir, `${id}.mp4`);
    await ai.files.download({ file: sample, downloadPath: path });
    const viaSdk = await readFile(path);
    // The uri as a player follows it, with the caller's key.
    const bytes = await download(onGateway(uri), { 'x-goog-api-key': p.key });
    expect(viaSdk.equals(bytes)).toBe(true);
    return bytes;
  },
};

const DOORS = { kling: KLING_DOOR, jimeng: JIMENG_DOOR, google: GOOGLE_DOOR } as const;

interface Pair {
  door: keyof typeof DOORS;
  upstream: UpstreamId;
  /** The door's own request fields (Kling's body, Jimeng's body, @google/genai's config). */
  ask: Record<string, unknown>;
  /** What the job is billed on: its seconds and the size multiplier of its frame. */
  seconds: number;
  multiplier: number;
  /** Another model of the upstream's channel than its usual one. */
  model?: string;
  /** Why a field the door usually sends is left out (the model's default applies). */
  note?: string;
}

const PAIRS: Pair[] = [
  // Kling's mode: std is 720p, pro 1080p (billed x1.666667); its duration is 5 or 10.
  {
    door: 'kling',
    upstream: 'jimeng',
    ask: { duration: '10', mode: 'std', aspect_ratio: '16:9' },
    seconds: 10,
    multiplier: 1,
  },
  {
    door: 'kling',
    upstream: 'seedance',
    ask: { duration: '10', mode: 'pro', aspect_ratio: '9:16' },
    seconds: 10,
    multiplier: HD,
  },
  {
    door: 'kling',
    upstream: 'vidu',
    ask: { duration: '5', mode: 'pro', aspect_ratio: '1:1' },
    seconds: 5,
    multiplier: HD,
  },
  {
    door: 'kling',
    upstream: 'wan',
    ask: { duration: '5', mode: 'std', aspect_ratio: '9:16' },
    seconds: 5,
    multiplier: 1,
  },
  {
    door: 'kling',
    upstream: 'hailuo',
    ask: {},
    seconds: 6,
    multiplier: 1,
    note: 'Hailuo makes 6 or 10 s at 768p/1080p',
  },
  {
    door: 'kling',
    upstream: 'veo',
    ask: { mode: 'std', aspect_ratio: '16:9' },
    seconds: 8,
    multiplier: 1,
    note: 'Veo makes 4, 6 or 8 s',
  },
  {
    door: 'kling',
    upstream: 'vertex-veo',
    ask: { mode: 'std', aspect_ratio: '9:16' },
    seconds: 8,
    multiplier: 1,
    note: 'Veo makes 4, 6 or 8 s',
  },
  // Jimeng's frames: 121 is 5 s, 241 is 10 s; no resolution field, so the model's default frame.
  {
    door: 'jimeng',
    upstream: 'sora',
    ask: { aspect_ratio: '9:16' },
    seconds: 4,
    multiplier: 1,
    note: 'Sora makes 4, 8 or 12 s',
  },
  { door: 'jimeng', upstream: 'kling', ask: { frames: 241, aspect_ratio: '1:1' }, seconds: 10, multiplier: 1 },
  // Vidu 1.5 at its default 360p: Jimeng has no resolution field, and viduq1 makes 1080p only.
  {
    door: 'jimeng',
    upstream: 'vidu',
    model: VIDU_15,
    ask: { aspect_ratio: '9:16' },
    seconds: 4,
    multiplier: 1,
    note: 'Vidu 1.5 makes 4 or 8 s',
  },
  { door: 'jimeng', upstream: 'wan', ask: { frames: 121, aspect_ratio: '16:9' }, seconds: 5, multiplier: 1 },
  { door: 'jimeng', upstream: 'hailuo', ask: { frames: 241 }, seconds: 10, multiplier: 1 },
  {
    door: 'jimeng',
    upstream: 'veo',
    ask: { aspect_ratio: '9:16' },
    seconds: 8,
    multiplier: 1,
    note: 'Veo makes 4, 6 or 8 s',
  },
  {
    door: 'jimeng',
    upstream: 'vertex-veo',
    ask: { aspect_ratio: '16:9' },
    seconds: 8,
    multiplier: 1,
    note: 'Veo makes 4, 6 or 8 s',
  },
  // @google/genai's config: durationSeconds, aspectRatio, resolution.
  {
    door: 'google',
    upstream: 'kling',
    ask: { durationSeconds: 10, aspectRatio: '9:16', resolution: '1080p' },
    seconds: 10,
    multiplier: HD,
  },
  { door: 'google', upstream: 'jimeng', ask: { durationSeconds: 5, aspectRatio: '16:9' }, seconds: 5, multiplier: 1 },
  {
    door: 'google',
    upstream: 'seedance',
    ask: { durationSeconds: 10, resolution: '720p' },
    seconds: 10,
    multiplier: 1,
  },
  {
    door: 'google',
    upstream: 'vidu',
    ask: { durationSeconds: 5, aspectRatio: '16:9', resolution: '1080p' },
    seconds: 5,
    multiplier: HD,
  },
  {
    door: 'google',
    upstream: 'wan',
    ask: { durationSeconds: 5, aspectRatio: '9:16', resolution: '720p' },
    seconds: 5,
    multiplier: 1,
  },
  {
    door: 'google',
    upstream: 'hailuo',
    ask: { durationSeconds: 10 },
    seconds: 10,
    multiplier: 1,
    note: "Veo's 8 s is not a Hailuo length",
  },
];

describe.each(
  PAIRS.map((p) => ({
    ...p,
    name: `the ${p.door} door on ${p.upstream}${p.note ? ` (default length: ${p.note})` : ''}`,
  })),
)('$name', (pair) => {
  it('submits in the door’s shape, polls through it to done, downloads the upstream’s bytes, charges price x seconds x multiplier', async () => {
    const up = { ...UPSTREAMS[pair.upstream], ...(pair.model ? { model: pair.model } : {}) };
    const p = await h.payer(INITIAL);
    const bytes = await DOORS[pair.door].run(p, up, pair.ask);
    expect(bytes.equals(up.file())).toBe(true);
    expect(await h.charged(p, INITIAL)).toBe(quotaFor(up.price, pair.seconds, pair.multiplier));
  });
});

describe('what the upstream model does not make is a 400 in the door’s shape, saying why, charging nothing', () => {
  it('the Kling door: Kling’s 5 s on Hailuo', async () => {
    const p = await h.payer(INITIAL);
    const sent = hailuo.requests.length;
    const r = await h.call('POST', '/kling/v1/videos/text2video', p.key, {
      model_name: UPSTREAMS.hailuo.model,
      prompt: 'x',
      duration: '5',
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 1201 });
    expect(typeof r.json.request_id).toBe('string');
    expect(r.json.message).toMatch(/6, 10 seconds, not 5/);
    expect(hailuo.requests.length).toBe(sent);
    expect(await h.charged(p, INITIAL)).toBe(0);
  });

  it('the Jimeng door: frames 121 (5 s) on Sora', async () => {
    const p = await h.payer(INITIAL);
    const sent = sora.requests.length;
    const r = await h.call('POST', SUBMIT, p.key, { req_key: UPSTREAMS.sora.model, prompt: 'x', frames: 121 });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 50400, status: 50400, data: null });
    expect(r.json.message).toMatch(/4, 8, 12 seconds, not 5/);
    expect(sora.requests.length).toBe(sent);
    expect(await h.charged(p, INITIAL)).toBe(0);
  });

  it('the Google door: Veo’s 8 s on Hailuo, raw and through @google/genai', async () => {
    const p = await h.payer(INITIAL);
    const sent = hailuo.requests.length;
    const r = await fetch(`${h.gateway}/v1beta/models/${UPSTREAMS.hailuo.model}:predictLongRunning`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': p.key, ...ENGLISH },
      body: JSON.stringify({ instances: [{ prompt: 'x' }], parameters: { durationSeconds: 8 } }),
    });
    expect(r.status).toBe(400);
    const e = (await r.json()).error;
    expect(e).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(e.message).toMatch(/6, 10 seconds, not 8/);
    await expect(
      google(p.key).models.generateVideos({
        model: UPSTREAMS.hailuo.model,
        prompt: 'x',
        config: { durationSeconds: 8 },
      }),
    ).rejects.toThrow(/not 8/);
    expect(hailuo.requests.length).toBe(sent);
    expect(await h.charged(p, INITIAL)).toBe(0);
  });
});
