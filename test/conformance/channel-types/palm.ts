import { PALM_ERROR, startFakePalm } from '../../../scripts/fake-upstream/palm/server.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

const KEY = 'AIzaSy-palm-test-key';

/** Google PaLM: no usage (the gateway counts), no streaming. */
export const palmEntry: ChannelTypeEntry = {
  type: ChannelType.PaLM,
  start: () => startFakePalm(KEY),
  channel: () => ({ key: KEY }),
  models: { plain: 'chat-bison-001', error: 'chat-bison-001+fail-400' },
  streams: false,
  error: { status: 400, message: PALM_ERROR },
  deadKey: 'AIzaSy-revoked-key',
  isGeneration: (r) => r.path.endsWith(':generateMessage'),
};
