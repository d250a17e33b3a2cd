import type { Defaulted } from '../../db/columns.ts';

/* The rows of `channel_calls` (joined into `Database` by server/db/types.ts). */

/** How a channel's latest relayed calls went (issue 45): written in batches by channel-calls.service.ts. */
export interface ChannelCallsTable {
  channel_id: number;
  /** Unix seconds of the latest call the upstream answered with a 2xx; 0 = none. */
  ok_at: Defaulted<number>;
  /** Unix seconds of the latest call the channel failed (5xx, 401/403/429, timeout, no connection); 0 = none. */
  failed_at: Defaulted<number>;
  /** JSON {status, message, zh?} of that failure. */
  failure: Defaulted<string>;
}
