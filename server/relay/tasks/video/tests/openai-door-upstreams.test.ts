import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ARK_KEY, type FakeArk, startFakeArk } from '../../../../../scripts/fake-upstream/video/ark.ts';
import { FAKE_MP4 } from '../../../../../scripts/fake-upstream/video/shared.ts';
import { type FakeDashScope, startFakeDashScope } from '../../../../../scripts/fake-upstream/video/dashscope.ts';
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
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * The OpenAI videos door (/v1/videos) on the other video upstreams (issue 40): the official `openai`
 * SDK drives Kling, Seedance (Volcengine Ark), Vidu, Wan (DashScope) and Hailuo (MiniMax) channels, and
 * Sora behind an OpenAI channel (type 1, sora-2-pro's larger size) and Azure OpenAI's v1 API (type 3),
 * and Veo on the Gemini API (24) and Vertex AI (41), through a listening gateway, each against its strict fake: create with OpenAI's seconds and size, retrieve to completed, download the
 * upstream's bytes (and a Range of them), the charge price x seconds x size multiplier, a failed job
 * refunded with its reason, and a duration the upstream model does not make refused saying which it does.
 * The Sora upstream is in openai-door.test.ts; Jimeng in jimeng-door.test.ts.
 */

// Long steps: only advance() moves a job, never the wall clock of a busy machine.
const STEP = 60_000;
const PRICE = 0.1;
const START = 10_000_000;
const KLING = 'kling-v2-1';
const SEEDANCE = 'doubao-seedance-1-0-pro-250528';
const VIDU = 'vidu1.5';
const WAN = 'wanx2.1-t2v-turbo';
const HAILUO = 'MiniMax-Hailuo-02';
const SORA = 'sora-2';
const SORA_PRO = 'sora-2-pro';
const VEO = 'veo-3.0-generate-001';
const VERTEX_VEO = 'veo-3.1-generate-001';

let h: VideoHarness;
let kling: FakeKling;
let ark: FakeArk;
let vidu: FakeVidu;
let wan: FakeDashScope;
let hailuo: FakeMiniMax;
/** Sora 2 behind an OpenAI channel (type 1) and behind Azure OpenAI's v1 API (type 3). */
let openaiSora: FakeSora;
let azureSora: FakeSora;
/** Veo on the Gemini API (type 24) and on Vertex AI (type 41, a service account). */
let veo: FakeVeo;

beforeAll(async () => {
  h = await startVideoHarness();
  kling = await startFakeKling({ stepMs: STEP });
  ark = await startFakeArk({ stepMs: STEP });
  [vidu, wan, hailuo] = await Promise.all([
    startFakeVidu({ stepMs: STEP }),
    startFakeDashScope({ stepMs: STEP }),
    startFakeMiniMax({ stepMs: STEP }),
  ]);
  openaiSora = await startFakeSora({ key: 'sk-openai-upstream', stepMs: STEP });
  azureSora = await startFakeSora({ key: 'azure-upstream-key', stepMs: STEP, azure: true });
  veo = await startFakeVeo({ stepMs: STEP });
  await h.setOptions({
    ModelPrice: JSON.stringify({
      [KLING]: PRICE,
      [SEEDANCE]: PRICE,
      [VIDU]: PRICE,
      [WAN]: PRICE,
      [HAILUO]: PRICE,
      [SORA]: PRICE,
      [SORA_PRO]: PRICE,
      [VEO]: PRICE,
      [VERTEX_VEO]: PRICE,
    }),
  });
  await h.channel({
    type: ChannelType.Kling,
    key: `${kling.accessKey}|${kling.secretKey}`,
    baseUrl: kling.url,
    models: [KLING],
  });
  await h.channel({
    type: ChannelType.DoubaoVideo,
    key: FAKE_ARK_KEY,
    baseUrl: ark.url,
    models: [SEEDANCE],
  });
  await h.channel({ type: ChannelType.Vidu, key: vidu.key, baseUrl: vidu.url, models: [VIDU] });
  await h.channel({ type: ChannelType.Ali, key: wan.key, baseUrl: wan.url, models: [WAN] });
  await h.channel({ type: ChannelType.MiniMax, key: hailuo.key, baseUrl: hailuo.url, models: [HAILUO] });
  await h.channel({
    type: ChannelType.OpenAI,
    key: 'sk-openai-upstream',
    baseUrl: openaiSora.url,
    models: [SORA_PRO],
  });
  await h.channel({
    type: ChannelType.Azure,
    key: 'azure-upstream-key',
    baseUrl: azureSora.url,
    models: [SORA],
  });
  await h.channel({ type: ChannelType.Gemini, key: FAKE_GEMINI_VEO_KEY, baseUrl: veo.url, models: [VEO] });
  await h.channel({
    type: ChannelType.VertexAI,
    key: fakeServiceAccount(veo.url),
    baseUrl: veo.url,
    other: 'us-central1',
    models: [VERTEX_VEO],
  });
});
afterAll(async () => {
  await h?.close();
  await kling?.close();
  await ark?.close();
  await Promise.all([
    vidu?.close(),
    wan?.close(),
    hailuo?.close(),
    openaiSora?.close(),
    azureSora?.close(),
    veo?.close(),
  ]);
});

async function client() {
  const payer = await h.payer(START);
  return { payer, key: payer.key, openai: h.openai(payer) };
}

/** OpenAI's SDK types seconds as "4" | "8" | "12"; other upstreams make other durations. */
const secs = (n: number) => String(n) as OpenAI.Videos.VideoSeconds;

interface Upstream {
  name: string;
  model: string;
  advance(ms: number): void;
  /** The upstream's bytes of the last job it took. */
  lastFile(): Buffer;
  /** What the upstream was asked for last (its own field names). */
  lastAsked(): Record<string, unknown>;
  /** What OpenAI's seconds and size become in the upstream's own fields. */
  asked: Record<string, unknown>;
  seconds: number;
  /** The durations the model makes, as the refusal names them. */
  makes: RegExp;
  /** Size asked through OpenAI's door and the size multiplier it is billed at. */
  size: string;
  multiplier: number;
  failPrompt: string;
  failReason: RegExp;
}

const UPSTREAMS: Upstream[] = [
  {
    name: 'Kling (50)',
    model: KLING,
    advance: (ms) => kling.advance(ms),
    lastFile: () => kling.mp4,
    lastAsked: () => [...kling.tasks.values()].at(-1)!.body,
    asked: { model_name: KLING, duration: '10', aspect_ratio: '9:16', mode: 'std' },
    seconds: 10,
    makes: /5.*10/,
    size: '720x1280',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /fake failure/,
  },
  {
    name: 'Seedance (54)',
    model: SEEDANCE,
    advance: (ms) => ark.advance(ms),
    lastFile: () => volcMp4([...ark.tasks.keys()].at(-1)!),
    lastAsked: () => {
      const task = [...ark.tasks.values()].at(-1)!;
      return { resolution: task.resolution, ratio: task.ratio, duration: task.duration };
    },
    asked: { duration: 5, ratio: '16:9', resolution: '720p' },
    seconds: 5,
    makes: /5.*10/,
    size: '1280x720',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /sensitive/,
  },
  {
    name: 'Vidu (52)',
    model: VIDU,
    advance: (ms) => vidu.advance(ms),
    lastFile: () => FAKE_MP4,
    lastAsked: () => {
      const task = [...vidu.tasks.values()].at(-1)!;
      return { endpoint: task.endpoint, duration: task.duration, resolution: task.resolution };
    },
    asked: { endpoint: 'text2video', duration: 4, resolution: '720p' },
    seconds: 4,
    makes: /4.*8/,
    size: '1280x720',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /AuditSubmitIllegal/,
  },
  {
    name: 'Wan (17)',
    model: WAN,
    advance: (ms) => wan.advance(ms),
    lastFile: () => FAKE_MP4,
    lastAsked: () => {
      const task = [...wan.tasks.values()].at(-1)!;
      return { duration: task.duration, ratio: task.ratio };
    },
    asked: { duration: 5, ratio: '1280*720' },
    seconds: 5,
    makes: /5/,
    size: '1280x720',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /DataInspectionFailed/,
  },
  {
    name: 'Hailuo (35)',
    model: HAILUO,
    advance: (ms) => hailuo.advance(ms),
    lastFile: () => FAKE_MP4,
    lastAsked: () => {
      const task = [...hailuo.tasks.values()].at(-1)!;
      return { duration: task.duration, resolution: task.resolution };
    },
    asked: { duration: 10, resolution: '768P' },
    seconds: 10,
    makes: /6.*10/,
    size: '1366x768',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /MiniMax status Fail/,
  },
  {
    name: 'Sora Pro on OpenAI (1)',
    model: SORA_PRO,
    advance: (ms) => openaiSora.advance(ms),
    lastFile: () => openaiSora.contentOf([...openaiSora.videos.keys()].at(-1)!),
    lastAsked: () => openaiSora.requests.findLast((r) => r.method === 'POST')!.fields,
    asked: { model: SORA_PRO, seconds: '8', size: '1792x1024' },
    seconds: 8,
    makes: /4, 8.*12/,
    size: '1792x1024',
    multiplier: 1.666667,
    failPrompt: 'please FAIL now',
    failReason: /asked the fake to fail/,
  },
  {
    name: 'Sora on Azure OpenAI (3)',
    model: SORA,
    advance: (ms) => azureSora.advance(ms),
    lastFile: () => azureSora.contentOf([...azureSora.videos.keys()].at(-1)!),
    lastAsked: () => azureSora.requests.findLast((r) => r.method === 'POST')!.fields,
    asked: { model: SORA, seconds: '8', size: '1280x720' },
    seconds: 8,
    makes: /4, 8.*12/,
    size: '1280x720',
    multiplier: 1,
    failPrompt: 'please FAIL now',
    failReason: /asked the fake to fail/,
  },
  {
    name: 'Veo on Gemini (24)',
    model: VEO,
    advance: (ms) => veo.advance(ms),
    lastFile: () => veo.fileOf([...veo.jobs.keys()].at(-1)!),
    lastAsked: () => [...veo.jobs.values()].at(-1)!.parameters as Record<string, unknown>,
    asked: { durationSeconds: 8, aspectRatio: '16:9', resolution: '720p' },
    seconds: 8,
    makes: /8, 4, 6 seconds/,
    size: '1280x720',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /asked to fail/,
  },
  {
    name: 'Veo on Vertex AI (41)',
    model: VERTEX_VEO,
    advance: (ms) => veo.advance(ms),
    lastFile: () => veo.fileOf([...veo.jobs.keys()].at(-1)!),
    lastAsked: () => [...veo.jobs.values()].at(-1)!.parameters as Record<string, unknown>,
    asked: { durationSeconds: 6, aspectRatio: '9:16', resolution: '720p' },
    seconds: 6,
    makes: /8, 4, 6 seconds/,
    size: '720x1280',
    multiplier: 1,
    failPrompt: 'please fail now',
    failReason: /asked to fail/,
  },
];

describe.each(UPSTREAMS)('OpenAI videos door on $name', (up) => {
  it('creates with OpenAI seconds and size, completes, downloads the upstream bytes and charges price x seconds', async () => {
    const { openai, key, payer } = await client();
    const job = await openai.videos.create({
      model: up.model,
      prompt: 'a heron in the reeds',
      seconds: secs(up.seconds),
      size: up.size as OpenAI.Videos.VideoSize,
    });
    expect(job).toMatchObject({ object: 'video', model: up.model, seconds: String(up.seconds) });
    // Veo's operation has no queued state: it is running from the submit on.
    expect(['queued', 'in_progress']).toContain(job.status);
    expect(up.lastAsked()).toMatchObject(up.asked);
    up.advance(12 * STEP);
    await h.due(job.id);
    const done = await openai.videos.retrieve(job.id);
    expect(done).toMatchObject({
      id: job.id,
      status: 'completed',
      progress: 100,
      seconds: String(up.seconds),
      size: up.size,
      error: null,
    });

    const file = await openai.videos.downloadContent(job.id);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.equals(up.lastFile())).toBe(true);
    const part = await fetch(`${h.gateway}/v1/videos/${job.id}/content`, {
      headers: { authorization: `Bearer ${key}`, range: 'bytes=0-15' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 16))).toBe(true);

    expect(await h.quota(payer)).toBe(START - Math.round(PRICE * up.seconds * up.multiplier * VIDEO_QUOTA_PER_UNIT));
  });

  it('a failed job shows the upstream reason and is refunded in full', async () => {
    const { openai, payer } = await client();
    const job = await openai.videos.create({ model: up.model, prompt: up.failPrompt });
    expect(await h.quota(payer)).toBeLessThan(START);
    up.advance(12 * STEP);
    await h.due(job.id);
    const v = await openai.videos.retrieve(job.id);
    expect(v.status).toBe('failed');
    expect(v.error?.message).toMatch(up.failReason);
    expect(await h.quota(payer)).toBe(START);
  });

  it('a duration the model does not make is refused before any charge, saying which it makes', async () => {
    const { openai, payer } = await client();
    const err = await openai.videos
      .create({ model: up.model, prompt: 'seven', seconds: secs(7) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toMatch(up.makes);
    expect(await h.quota(payer)).toBe(START);
  });
});
