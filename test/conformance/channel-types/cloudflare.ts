import { ChannelType } from '../../../shared/channel-types.ts';
import {
  CF_FAIL_400,
  CF_USAGE,
  FAKE_CF_ACCOUNT,
  FAKE_CF_TOKEN,
  startFakeCloudflare,
} from '../../../scripts/fake-upstream/cloudflare/index.ts';
import type { ChannelTypeEntry } from './entry.ts';

/** Cloudflare Workers AI: an API token, the account id in `other`, OpenAI-compatible chat under the account. */
export const cloudflareEntry: ChannelTypeEntry = {
  type: ChannelType.Cloudflare,
  start: () => startFakeCloudflare(),
  channel: () => ({ key: FAKE_CF_TOKEN, other: FAKE_CF_ACCOUNT }),
  models: { plain: '@cf/meta/llama-3.1-8b-instruct', error: '@cf/meta/llama-3.1-8b-instruct+fail-400' },
  usage: { prompt: CF_USAGE.prompt_tokens, completion: CF_USAGE.completion_tokens },
  error: { status: 400, message: CF_FAIL_400.message },
  deadKey: 'revoked-cloudflare-token',
  isGeneration: (r) => r.path.endsWith('/ai/v1/chat/completions'),
};
