import {
  FAKE_ZHIPU_ID,
  FAKE_ZHIPU_SECRET,
  startFakeZhipu,
  ZHIPU_FAIL_400,
  ZHIPU_USAGE,
} from '../../../scripts/fake-upstream/zhipu/index.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

/** Zhipu (legacy v3): a JWT signed from `id.secret`, errors in a 200 answer, usage on the finish's meta line. */
export const zhipuEntry: ChannelTypeEntry = {
  type: ChannelType.Zhipu,
  start: () => startFakeZhipu(),
  channel: () => ({ key: `${FAKE_ZHIPU_ID}.${FAKE_ZHIPU_SECRET}` }),
  models: { plain: 'chatglm_turbo', error: 'chatglm_turbo+fail-400' },
  usage: { prompt: ZHIPU_USAGE.prompt_tokens, completion: ZHIPU_USAGE.completion_tokens },
  error: { status: 400, message: ZHIPU_FAIL_400.msg },
  // The right id with a wrong secret: the JWT's signature fails (1004).
  deadKey: `${FAKE_ZHIPU_ID}.not-the-secret`,
  isGeneration: (r) => r.path.includes('/model-api/'),
};
