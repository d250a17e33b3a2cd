import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { type ChannelCallsWrite, readChannelCalls, upsertChannelCalls } from './channel-calls.repo.ts';

/** A failed call as the channel list shows it: the upstream's status and words (zh: the gateway's own, in Chinese). */
export interface CallFailure {
  status: number;
  message: string;
  zh?: string;
}

/** The latest relayed calls of one channel (unix seconds, 0 = none): admin-only, the console's channel list. */
export interface LastCalls {
  ok_at: number;
  failed_at: number;
  failure: CallFailure | null;
}

export interface ChannelCalls {
  /** The upstream answered a relayed call with a 2xx. Never waits for the database. */
  ok(channelId: number): void;
  /** The channel failed a relayed call (not the client's fault). Never waits for the database. */
  failed(channelId: number, failure: CallFailure): void;
  /** The stored state of these channels with this instance's calls not yet written laid over it. */
  read(channelIds: number[]): Promise<Map<number, LastCalls>>;
  /** Writes what is pending (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

const FLUSH_AFTER_MS = 2000;

const readFailure = (json: string): CallFailure | null => {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Partial<CallFailure>;
    return typeof v.message === 'string'
      ? { status: Number(v.status) || 0, message: v.message, ...(v.zh ? { zh: String(v.zh) } : {}) }
      : null;
  } catch {
    return null;
  }
};

/**
 * Channel health from the relay's own traffic (issue 45), so the console's list shows the later of a
 * channel's last test and its latest calls. A relayed call only touches a map in memory; what changed
 * is written every 2 s, one upsert per channel that had calls (a busy channel costs one write per 2 s,
 * not one per request). Several instances write the same rows and the later time wins in SQL.
 */
export function createChannelCalls(infra: Pick<Infra, 'db' | 'log'>): ChannelCalls {
  let pending = new Map<number, LastCalls>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  function entry(channelId: number): LastCalls {
    let e = pending.get(channelId);
    if (!e) pending.set(channelId, (e = { ok_at: 0, failed_at: 0, failure: null }));
    if (closed) void flush();
    else if (!timer) {
      timer = setTimeout(() => void flush(), FLUSH_AFTER_MS);
      // A pending health write never keeps the process alive; close() flushes it.
      timer.unref();
    }
    return e;
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = new Map();
    const rows: ChannelCallsWrite[] = [...batch].map(([channelId, e]) => ({
      channelId,
      okAt: e.ok_at,
      failedAt: e.failed_at,
      failure: e.failure ? JSON.stringify(e.failure) : '',
    }));
    running = running.then(async () => {
      if (rows.length === 0) return;
      try {
        await infra.db.transaction().execute((trx) => upsertChannelCalls(trx, rows));
      } catch (err) {
        infra.log.error({ err, channels: rows.length }, 'writing channel call health failed');
      }
    });
    return running;
  }

  return {
    ok(channelId) {
      entry(channelId).ok_at = nowSeconds();
    },
    failed(channelId, failure) {
      const e = entry(channelId);
      e.failed_at = nowSeconds();
      e.failure = { ...failure, message: failure.message.slice(0, 500) };
    },
    async read(channelIds) {
      const out = new Map<number, LastCalls>();
      for (const r of await readChannelCalls(infra.db, channelIds))
        out.set(r.channel_id, { ok_at: r.ok_at, failed_at: r.failed_at, failure: readFailure(r.failure) });
      for (const id of channelIds) {
        const mine = pending.get(id);
        if (!mine) continue;
        const stored = out.get(id) ?? { ok_at: 0, failed_at: 0, failure: null };
        out.set(id, {
          ok_at: Math.max(stored.ok_at, mine.ok_at),
          ...(mine.failed_at > stored.failed_at
            ? { failed_at: mine.failed_at, failure: mine.failure }
            : { failed_at: stored.failed_at, failure: stored.failure }),
        });
      }
      return out;
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
