import type { ChannelQuery } from '../shared/channel-query.ts';
import { ANTHROPIC_VERSION } from './adapter.ts';

/**
 * Anthropic's `GET /v1/models` (`{data: [{id}], has_more, first_id, last_id}`), asked the way
 * Anthropic takes a key: `x-api-key` and `anthropic-version`, not a bearer token. The list is
 * paginated (20 a page by default, `after_id` = the last page's `last_id` for the next one); one
 * page of Anthropic's maximum, 1,000, holds every model an account has, so one GET is enough.
 * A base URL that already ends in /v1 is used as given, as for messages. Only adapter.ts imports
 * this module (it sets `models`), as with count-tokens.ts.
 */
export const anthropicModels: ChannelQuery<string[]> = {
  requests: (base, key) => [
    {
      url: `${/\/v1$/.test(base) ? base : `${base}/v1`}/models?limit=1000`,
      method: 'GET',
      headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION },
    },
  ],
  read: ([body]) => ((body as { data?: { id?: unknown }[] } | null)?.data ?? []).map((m) => String(m.id ?? '')),
};
