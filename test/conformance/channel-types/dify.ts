import { DIFY_ERROR, DIFY_USAGE, startFakeDify } from '../../../scripts/fake-upstream/dify/server.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

const KEY = 'app-8kQz3mN4pR7sT1vW';

/**
 * A Dify agent app: the key is the app's, the model name reaches Dify as the end user (`user`), which
 * is how the fake tells the plain answer from the failing one.
 */
export const difyEntry: ChannelTypeEntry = {
  type: ChannelType.Dify,
  start: () => startFakeDify(KEY),
  channel: () => ({ key: KEY }),
  models: { plain: 'dify', error: 'dify+fail-400' },
  usage: { prompt: DIFY_USAGE.prompt_tokens, completion: DIFY_USAGE.completion_tokens },
  error: { status: 400, message: DIFY_ERROR },
  deadKey: 'app-revoked0000000000',
  isGeneration: (r) => r.path === '/v1/chat-messages',
};
