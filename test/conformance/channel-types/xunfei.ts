import {
  FAKE_SPARK_API_KEY,
  FAKE_SPARK_APP_ID,
  FAKE_SPARK_KEY,
  SPARK_USAGE,
  startFakeSpark,
} from '../../../scripts/fake-upstream/xunfei/index.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

/**
 * Xunfei Spark: a WebSocket session per request, the URL signed with the key's APISecret / APIKey;
 * the version from the model. A version Spark does not have gets its "invalid model domain" frame.
 */
export const xunfeiEntry: ChannelTypeEntry = {
  type: ChannelType.XunfeiSpark,
  start: () => startFakeSpark(),
  channel: () => ({ key: FAKE_SPARK_KEY, other: 'v3.5' }),
  models: { plain: 'SparkDesk-v3.5', error: 'SparkDesk-v9.9' },
  usage: { prompt: SPARK_USAGE.prompt_tokens, completion: SPARK_USAGE.completion_tokens },
  error: { status: 400, message: 'invalid model domain' },
  // A wrong APISecret: Spark's gateway refuses the signature (401 HMAC signature does not match).
  deadKey: `${FAKE_SPARK_APP_ID}|d3Jvbmctc2VjcmV0|${FAKE_SPARK_API_KEY}`,
  isGeneration: (r) => r.path.endsWith('/chat') || r.path.startsWith('/chat/'),
};
