import { ChannelType } from '../../../shared/channel-types.ts';
import {
  FAKE_TENCENT_SECRET_ID,
  FAKE_TENCENT_SECRET_KEY,
  startFakeTencent,
  TENCENT_FAIL_400,
  TENCENT_USAGE,
} from '../../../scripts/fake-upstream/tencent/index.ts';
import type { ChannelTypeEntry } from './entry.ts';

/** Tencent Hunyuan: a TC3-signed API 3.0 call, errors in a 200 answer's Response.Error. */
export const tencentEntry: ChannelTypeEntry = {
  type: ChannelType.Tencent,
  start: () => startFakeTencent(),
  channel: () => ({ key: `1300000001|${FAKE_TENCENT_SECRET_ID}|${FAKE_TENCENT_SECRET_KEY}`, other: 'ap-guangzhou' }),
  models: { plain: 'hunyuan-lite', error: 'hunyuan-lite+fail-400' },
  usage: { prompt: TENCENT_USAGE.PromptTokens, completion: TENCENT_USAGE.CompletionTokens },
  error: { status: 400, message: TENCENT_FAIL_400.message },
  // The right SecretId with a wrong SecretKey: Tencent answers AuthFailure.SignatureFailure.
  deadKey: `1300000001|${FAKE_TENCENT_SECRET_ID}|not-the-secret-key`,
  isGeneration: (r) => r.headers['x-tc-action'] === 'ChatCompletions',
};
