import {
  COZE_BOT,
  COZE_UNPUBLISHED_BOT,
  COZE_UNPUBLISHED_MSG,
  COZE_USAGE,
  startFakeCoze,
} from '../../../scripts/fake-upstream/coze/server.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

const TOKEN = 'pat_Qm8x2LkP0aZrT5vWn3YhB7cD';

/** A Coze bot through the v3 chat API: `other` left empty, so the bot id is the model name. */
export const cozeEntry: ChannelTypeEntry = {
  type: ChannelType.Coze,
  start: () => startFakeCoze(TOKEN),
  channel: () => ({ key: TOKEN }),
  models: { plain: COZE_BOT, error: COZE_UNPUBLISHED_BOT },
  usage: { prompt: COZE_USAGE.input_count, completion: COZE_USAGE.output_count },
  error: { status: 400, message: COZE_UNPUBLISHED_MSG },
  deadKey: 'pat_revoked000000000000000',
  isGeneration: (r) => r.path === '/v3/chat',
};
