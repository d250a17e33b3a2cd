import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeVidu, startFakeVidu } from '../../../../../scripts/fake-upstream/video/vidu.ts';
import { ChannelType } from '../../../../../shared/channel-types.ts';
import { startVideoHarness, VIDEO_QUOTA_PER_UNIT, type VideoHarness } from './harness.ts';

/*
 * The one frame rule of the video price (issue 40, tasks/video/price.ts): a job is reserved at the size
 * or resolution asked, priced by its tier whichever way it was asked (a pixel size 1920x1080 is 1080p),
 * and settled on what the upstream reports, else on what it was reserved on. Vidu's 1080p costs more
 * even though Vidu's answer does not repeat the resolution.
 */

const STEP = 60_000;
const PRICE = 0.1;
const INITIAL = 10_000_000;

let h: VideoHarness;
let vidu: FakeVidu;

beforeAll(async () => {
  h = await startVideoHarness();
  vidu = await startFakeVidu({ stepMs: STEP });
  await h.setOptions({ ModelPrice: JSON.stringify({ viduq1: PRICE }) });
  await h.channel({ type: ChannelType.Vidu, key: vidu.key, baseUrl: vidu.url, models: ['viduq1'] });
});
afterAll(async () => {
  await h.close();
  await vidu.close();
});

describe('the video price by frame', () => {
  it('a Vidu job asked at 1920x1080 through /v1/videos is reserved and charged x1.666667, nothing more at settlement', async () => {
    const payer = await h.payer(INITIAL);
    const openai = new OpenAI({ apiKey: payer.key, baseURL: `${h.gateway}/v1`, maxRetries: 0 });
    const created = await openai.videos.create({
      model: 'viduq1' as 'sora-2',
      prompt: 'a paper boat in the rain',
      size: '1920x1080' as '1280x720',
    });
    expect(vidu.requests.at(-1)!.body).toMatchObject({ resolution: '1080p', duration: 5 });
    const charge = Math.round(PRICE * 5 * 1.666667 * VIDEO_QUOTA_PER_UNIT);
    expect(Number((await h.ledger(payer)).user.quota)).toBe(INITIAL - charge);

    let v = created;
    for (let i = 0; i < 8 && v.status !== 'completed'; i++) {
      vidu.advance(STEP);
      await h.due(created.id);
      v = await openai.videos.retrieve(created.id);
    }
    expect(v.status).toBe('completed');
    const l = await h.ledger(payer);
    expect(Number(l.user.quota)).toBe(INITIAL - charge);
    expect(l.logQuota).toBe(charge);
    expect(Number((await h.row(created.id)).quota)).toBe(charge);
  });
});
