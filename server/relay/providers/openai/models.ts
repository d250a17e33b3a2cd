import { bearerGet, type ChannelQuery } from '../shared/channel-query.ts';

/**
 * OpenAI's `GET /v1/models` (`{data: [{id}]}`): the model list of every channel type whose
 * provider has no list of its own (providers/index.ts), OpenAI-compatible or not.
 */
export const openAIModels: ChannelQuery<string[]> = {
  requests: (base, key) => [bearerGet(`${base}/v1/models`, key)],
  read: ([body]) => ((body as { data?: { id?: unknown }[] } | null)?.data ?? []).map((m) => String(m.id ?? '')),
};
