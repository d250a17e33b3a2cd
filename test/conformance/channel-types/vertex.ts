import { ChannelType } from '../../../shared/channel-types.ts';
import { fakeServiceAccount, startFakeVertex } from '../../../scripts/fake-upstream/vertex/index.ts';
import { geminiFailure } from '../../../scripts/fake-upstream/gemini.ts';
import type { ChannelTypeEntry } from './entry.ts';

/**
 * Vertex AI with a service account: the gateway signs a JWT with the key file's private key, trades
 * it at the key's token_uri (the fake verifies the signature) and calls the Google publisher's
 * generateContent with the bearer token. The fake's usage follows the prompt (as Gemini's does).
 */
export const vertexEntry: ChannelTypeEntry = {
  type: ChannelType.VertexAI,
  start: () => startFakeVertex(),
  channel: (url) => ({ key: fakeServiceAccount(url), other: 'us-central1' }),
  models: { plain: 'gemini-2.5-flash', error: 'gemini-2.5-flash+fail-400' },
  error: { status: 400, message: geminiFailure(400).error.message },
  // An express-mode API key Google does not know (API_KEY_INVALID). A service account the token endpoint
  // refuses is the other dead key (providers/vertex/vertex-auth.test.ts): its token_uri needs the fake's URL.
  deadKey: 'AQ.revoked-express-key',
  isGeneration: (r) => /:(generateContent|streamGenerateContent)/.test(r.path),
};
