import {
  BAIDU_FAIL_400,
  BAIDU_USAGE,
  FAKE_BAIDU_API_KEY,
  FAKE_BAIDU_SECRET_KEY,
  startFakeBaidu,
} from '../../../scripts/fake-upstream/baidu/index.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

/** Baidu ERNIE (legacy): an access token exchanged for `APIKey|SecretKey`, errors in a 200 answer. */
export const baiduEntry: ChannelTypeEntry = {
  type: ChannelType.Baidu,
  start: () => startFakeBaidu(),
  channel: () => ({ key: `${FAKE_BAIDU_API_KEY}|${FAKE_BAIDU_SECRET_KEY}` }),
  models: { plain: 'ERNIE-Speed-8K', error: 'ernie_speed+fail-400' },
  usage: { prompt: BAIDU_USAGE.prompt_tokens, completion: BAIDU_USAGE.completion_tokens },
  error: { status: 400, message: BAIDU_FAIL_400.error_msg },
  // The right API Key with a wrong Secret Key: the token endpoint answers invalid_client.
  deadKey: `${FAKE_BAIDU_API_KEY}|not-the-secret-key`,
  isGeneration: (r) => r.path.includes('/wenxinworkshop/chat/'),
};
