import { GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ALI_KEY, startFakeAli } from '../../../../scripts/fake-upstream/ali/index.ts';
import { FAKE_ARK_KEY, startFakeArkImages } from '../../../../scripts/fake-upstream/images/ark.ts';
import { FAKE_GEMINI_IMAGE_KEY, startFakeGoogleImages } from '../../../../scripts/fake-upstream/images/google.ts';
import {
  FAKE_VOLC_ACCESS_KEY,
  FAKE_VOLC_SECRET_KEY,
  startFakeJimengImages,
} from '../../../../scripts/fake-upstream/images/jimeng.ts';
import { FAKE_MINIMAX_KEY, startFakeMiniMaxImages } from '../../../../scripts/fake-upstream/images/minimax.ts';
import { startFakeOpenAIImages } from '../../../../scripts/fake-upstream/images/openai.ts';
import { FAKE_REPLICATE_KEY, startFakeReplicate } from '../../../../scripts/fake-upstream/images/replicate.ts';
import { fakePng } from '../../../../scripts/fake-upstream/images/shared.ts';
import { FAKE_SILICONFLOW_KEY, startFakeSiliconFlow } from '../../../../scripts/fake-upstream/images/siliconflow.ts';
import { FAKE_XAI_KEY, startFakeXai } from '../../../../scripts/fake-upstream/images/xai.ts';
import { FAKE_ZHIPU_V4_KEY, startFakeZhipuImages } from '../../../../scripts/fake-upstream/images/zhipu.ts';
import { fakeServiceAccount } from '../../../../scripts/fake-upstream/vertex/index.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { IMAGE_UPSTREAMS } from '../../../../test/conformance/image-matrix.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../../test/relay-fixtures.ts';

/*
 * docs/conformance.md § Image doors (issue 44): every image door, called by its official client (the
 * `openai` SDK's images.generate and images.edit with a file; @google/genai's generateContent with
 * image output, with an input picture for an edit, and generateImages), to every image upstream's
 * strict fake, through one listening gateway. Each upstream's channel sits in a group of its own, so
 * one model name (dall-e-3 on OpenAI and Azure, Imagen on Gemini and Vertex AI) reaches the upstream
 * of the cell. A cell passes when one picture comes back in the door's own shape, as real PNG bytes,
 * without the upstream's address or key, and exactly one picture's price is charged (the log rows,
 * the wallet and the token agree). An edit on an upstream that makes none is refused, charging nothing.
 */

const UNIT = 500_000;
const PRICE = 0.02;
const ONE_PICTURE = PRICE * UNIT;
const QUOTA = 10_000_000;
const PROMPT = 'a quiet harbour at dawn';
const EDIT_PROMPT = 'paint it in watercolour';
const INPUT = fakePng(512, 512, 'matrix-in');

interface Fake {
  url: string;
  close(): Promise<void>;
}

interface Upstream {
  /** Column name in docs/conformance.md. */
  id: string;
  type: number;
  start(): Promise<Fake>;
  key(url: string): string;
  other?: string;
  /** The model a generation asks. */
  gen: string;
  /** The model an edit asks; absent: the upstream makes no edits through the gateway. */
  edit?: string;
}

const UPSTREAMS: Upstream[] = [
  {
    id: 'openai',
    type: ChannelType.OpenAI,
    start: startFakeOpenAIImages,
    key: () => 'sk-matrix',
    gen: 'dall-e-3',
    edit: 'gpt-image-1',
  },
  {
    id: 'azure',
    type: ChannelType.Azure,
    start: startFakeOpenAIImages,
    key: () => 'sk-azure-matrix',
    other: '2025-04-01-preview',
    gen: 'dall-e-3',
    edit: 'gpt-image-1',
  },
  { id: 'ali', type: ChannelType.Ali, start: startFakeAli, key: () => FAKE_ALI_KEY, gen: 'wanx-v1' },
  {
    id: 'gemini',
    type: ChannelType.Gemini,
    start: startFakeGoogleImages,
    key: () => FAKE_GEMINI_IMAGE_KEY,
    gen: 'imagen-4.0-generate-001',
    edit: 'gemini-2.5-flash-image',
  },
  {
    id: 'vertex',
    type: ChannelType.VertexAI,
    start: startFakeGoogleImages,
    key: (url) => fakeServiceAccount(url),
    other: 'us-central1',
    gen: 'imagen-4.0-generate-001',
    edit: 'gemini-2.5-flash-image',
  },
  {
    id: 'volcengine',
    type: ChannelType.VolcEngine,
    start: startFakeArkImages,
    key: () => FAKE_ARK_KEY,
    gen: 'doubao-seedream-3-0-t2i-250415',
    edit: 'doubao-seededit-3-0-i2i-250628',
  },
  {
    id: 'jimeng',
    type: ChannelType.Jimeng,
    start: () => startFakeJimengImages({ stepMs: 50 }),
    key: () => `${FAKE_VOLC_ACCESS_KEY}|${FAKE_VOLC_SECRET_KEY}`,
    gen: 'jimeng_t2i_v31',
    edit: 'jimeng_i2i_v30',
  },
  {
    id: 'minimax',
    type: ChannelType.MiniMax,
    start: startFakeMiniMaxImages,
    key: () => FAKE_MINIMAX_KEY,
    gen: 'image-01',
  },
  {
    id: 'replicate',
    type: ChannelType.Replicate,
    start: () => startFakeReplicate(),
    key: () => FAKE_REPLICATE_KEY,
    gen: 'black-forest-labs/flux-schnell',
    edit: 'black-forest-labs/flux-kontext-pro',
  },
  {
    id: 'zhipu',
    type: ChannelType.ZhipuV4,
    start: startFakeZhipuImages,
    key: () => FAKE_ZHIPU_V4_KEY,
    gen: 'cogview-3-flash',
  },
  { id: 'xai', type: ChannelType.XAI, start: startFakeXai, key: () => FAKE_XAI_KEY, gen: 'grok-2-image-1212' },
  {
    id: 'siliconflow',
    type: ChannelType.SiliconFlow,
    start: startFakeSiliconFlow,
    key: () => FAKE_SILICONFLOW_KEY,
    gen: 'Kwai-Kolors/Kolors',
    edit: 'Qwen/Qwen-Image-Edit',
  },
];

/** One door: asks one picture of `model` (an edit when `edit`) with `key`, answers the pictures' bytes. */
type Door = (key: string, model: string, edit: boolean) => Promise<{ pictures: Buffer[]; answer: unknown }>;

let h: RelayHarness;
const fakes = new Map<string, Fake>();
const gateway = () => h.baseURL.replace(/\/v1$/, '');
const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64');

const DOORS: Record<string, Door> = {
  async 'openai images.generate / images.edit'(key, model, edit) {
    const client = new OpenAI({ apiKey: key, baseURL: h.baseURL, maxRetries: 0 });
    const r = edit
      ? await client.images.edit({
          model,
          prompt: EDIT_PROMPT,
          image: await toFile(INPUT, 'photo.png', { type: 'image/png' }),
          response_format: 'b64_json',
        })
      : await client.images.generate({ model, prompt: PROMPT, n: 1, response_format: 'b64_json' });
    return { pictures: (r.data ?? []).map((d) => b64(d.b64_json)), answer: r };
  },
  async 'genai generateContent'(key, model, edit) {
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway() } });
    const parts = edit
      ? [{ inlineData: { mimeType: 'image/png', data: INPUT.toString('base64') } }, { text: EDIT_PROMPT }]
      : [{ text: PROMPT }];
    const r = await ai.models.generateContent({
      model,
      contents: [{ role: 'user', parts }],
      config: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    const pictures = (r.candidates ?? [])
      .flatMap((c) => c.content?.parts ?? [])
      .filter((p) => p.inlineData)
      .map((p) => b64(p.inlineData!.data));
    return { pictures, answer: r };
  },
  async 'genai generateImages'(key, model, edit) {
    if (edit) throw new Error('generateImages makes no edits');
    const ai = new GoogleGenAI({ vertexai: true, apiKey: key, httpOptions: { baseUrl: gateway() } });
    const r = await ai.models.generateImages({ model, prompt: PROMPT, config: { numberOfImages: 1 } });
    return { pictures: (r.generatedImages ?? []).map((g) => b64(g.image?.imageBytes)), answer: r };
  },
};

beforeAll(async () => {
  h = await startRelayHarness();
  const models = new Set(UPSTREAMS.flatMap((u) => [u.gen, u.edit ?? u.gen]));
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(Object.fromEntries([...models].map((m) => [m, PRICE]))),
    GroupRatio: JSON.stringify(Object.fromEntries([['default', 1], ...UPSTREAMS.map((u) => [`img-${u.id}`, 1])])),
  });
  for (const u of UPSTREAMS) {
    const fake = await u.start();
    fakes.set(u.id, fake);
    await insertChannel(h.deps, {
      name: u.id,
      type: u.type,
      key: u.key(fake.url),
      baseUrl: fake.url,
      other: u.other,
      models: [...new Set([u.gen, u.edit ?? u.gen])],
      groups: [`img-${u.id}`],
    });
  }
}, 60_000);
afterAll(async () => {
  await h?.close();
  for (const f of fakes.values()) await f.close();
});

/** A user of the upstream's group with a limited token; `charged()` checks the ledger agrees. */
async function payerOf(u: Upstream) {
  const user = await insertUser(h.deps, { quota: QUOTA, group: `img-${u.id}` });
  const token = await insertToken(h.deps, user.id, { remainQuota: 1_000_000 });
  return {
    key: token.key,
    async charged() {
      await h.drain();
      const l = await ledger(h.deps, user.id, token.id);
      expect(Number(l.user.quota)).toBe(QUOTA - l.logQuota);
      expect(Number(l.token!.used_quota)).toBe(l.logQuota);
      return l.logs.map((x) => Number(x.quota));
    },
  };
}

const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

it("drives the upstreams docs/conformance.md's image matrix lists, edits where it says so", () => {
  expect(UPSTREAMS.map((u) => [u.id, u.edit !== undefined])).toEqual(IMAGE_UPSTREAMS.map((u) => [u.id, u.edits]));
});

describe.each(Object.entries(DOORS))('%s', (doorName, door) => {
  const cells = UPSTREAMS.flatMap((u) => [
    { u, edit: false },
    ...(doorName === 'genai generateImages' ? [] : [{ u, edit: true }]),
  ]);
  it.each(cells.map((c) => [`${c.edit ? 'edit' : 'generate'} on ${c.u.id}`, c] as const))(
    '%s',
    async (_, { u, edit }) => {
      const p = await payerOf(u);
      const model = edit ? (u.edit ?? u.gen) : u.gen;
      if (edit && !u.edit) {
        // The upstream makes no edits: refused before or by the upstream, nothing charged.
        await expect(door(p.key, model, true)).rejects.toThrow();
        expect(await p.charged()).toEqual([]);
        return;
      }
      const { pictures, answer } = await door(p.key, model, edit);
      expect(pictures).toHaveLength(1);
      expect(isPng(pictures[0])).toBe(true);
      const text = JSON.stringify(answer);
      expect(text).not.toContain(fakes.get(u.id)!.url);
      expect(text).not.toContain(u.key(fakes.get(u.id)!.url));
      expect(await p.charged()).toEqual([ONE_PICTURE]);
    },
  );
});
