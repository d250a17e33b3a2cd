import { ALI_FAIL_400, ALI_USAGE, FAKE_ALI_KEY, startFakeAli } from '../../../scripts/fake-upstream/ali/index.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

/** Alibaba DashScope: chat through its OpenAI-compatible mode with a bearer `sk-` key. */
export const aliEntry: ChannelTypeEntry = {
  type: ChannelType.Ali,
  start: () => startFakeAli(),
  channel: () => ({ key: FAKE_ALI_KEY }),
  models: { plain: 'qwen-plus', error: 'qwen-plus+fail-400' },
  usage: { prompt: ALI_USAGE.prompt_tokens, completion: ALI_USAGE.completion_tokens },
  error: { status: 400, message: ALI_FAIL_400.message },
  deadKey: 'sk-ali-revoked-key',
  isGeneration: (r) => r.path === '/compatible-mode/v1/chat/completions',
};
