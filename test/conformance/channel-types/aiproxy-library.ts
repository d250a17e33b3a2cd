import { LIBRARY_ERROR, startFakeAiProxyLibrary } from '../../../scripts/fake-upstream/aiproxy-library/server.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import type { ChannelTypeEntry } from './entry.ts';

const KEY = 'aiproxy-library-key';
const LIBRARY = 'lib-42';

/** AI Proxy's knowledge base: the library id in `other`, no usage (the gateway counts). */
export const aiProxyLibraryEntry: ChannelTypeEntry = {
  type: ChannelType.AIProxyLibrary,
  start: () => startFakeAiProxyLibrary(KEY, LIBRARY),
  channel: () => ({ key: KEY, other: LIBRARY }),
  models: { plain: 'gpt-4o-mini', error: 'gpt-4o-mini+fail-400' },
  error: { status: 400, message: LIBRARY_ERROR },
  deadKey: 'revoked-library-key',
  isGeneration: (r) => r.path === '/api/library/ask',
};
