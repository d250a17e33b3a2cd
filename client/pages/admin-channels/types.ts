import type { inferRouterOutputs } from '@trpc/server';
import { channelTypeInfo } from '../../../shared/channel-types.ts';
import { readChannelTestResult } from '../../../shared/channel-test-result.ts';
import { ChannelStatus } from '../../../shared/constants.ts';
import { readStoredMessage, type StoredMessage } from '../../../shared/stored-message.ts';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type ChannelRow = inferRouterOutputs<AppRouter>['channels']['list']['items'][number];

/** A table row: a channel, or in tag mode a tag with all its channels. */
export type Entry =
  | { kind: 'channel'; rowKey: string; channel: ChannelRow }
  | { kind: 'tag'; rowKey: string; tag: string; channels: ChannelRow[] };

export const channelEntry = (channel: ChannelRow): Entry => ({ kind: 'channel', rowKey: `c${channel.id}`, channel });

/** Tag mode: tagged channels collapse into one entry per tag (in the server's order), untagged stay rows. */
export function toEntries(rows: ChannelRow[], tagMode: boolean): Entry[] {
  if (!tagMode) return rows.map(channelEntry);
  const out: Entry[] = [];
  const byTag = new Map<string, ChannelRow[]>();
  for (const row of rows) {
    if (!row.tag) {
      out.push(channelEntry(row));
      continue;
    }
    let list = byTag.get(row.tag);
    if (!list) {
      list = [];
      byTag.set(row.tag, list);
      out.push({ kind: 'tag', rowKey: `t${row.tag}`, tag: row.tag, channels: list });
    }
    list.push(row);
  }
  return out;
}

/**
 * A number a tag's channels share, or null with their range ("0–10") when they differ (issue 45): a tag
 * row never shows its first channel's value as the tag's.
 */
export function spread(channels: ChannelRow[], field: 'priority' | 'weight'): { value: number | null; mixed?: string } {
  const values = channels.map((c) => c[field]);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? { value: min } : { value: null, mixed: `${min}–${max}` };
}

export const channelsOf = (e: Entry): ChannelRow[] => (e.kind === 'tag' ? e.channels : [e.channel]);

export const typeName = (type: number) => channelTypeInfo(type)?.name ?? `#${type}`;

export const isDisabled = (c: Pick<ChannelRow, 'status'>) => c.status !== ChannelStatus.Enabled;

export const splitCsv = (v: string | null | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * other_info is JSON with status_reason and status_time when the relay disabled the channel, and
 * status_message, the reason's registry code and parameters, when the gateway worded it itself.
 */
export function statusInfo(
  c: Pick<ChannelRow, 'other_info'>,
): { reason: string; time: number; message?: StoredMessage } | null {
  try {
    const v = JSON.parse(c.other_info || '{}') as {
      status_reason?: unknown;
      status_time?: unknown;
      status_message?: unknown;
    };
    if (!v.status_reason && !v.status_time) return null;
    const message = readStoredMessage(v.status_message);
    return { reason: String(v.status_reason ?? ''), time: Number(v.status_time) || 0, ...(message ? { message } : {}) };
  } catch {
    return null;
  }
}

/** Spec §4: 0 untested; up to 1 s green, 3 s lime, 5 s yellow, else red. */
export function responseColor(ms: number): string {
  if (ms === 0) return 'gray';
  if (ms <= 1000) return 'green';
  if (ms <= 3000) return 'lime';
  if (ms <= 5000) return 'yellow';
  return 'red';
}

/** The last channel test as the row shows it: never run, passed in `ms`, or failed (why, after `ms`). */
export type LastTest =
  | { state: 'untested' }
  | { state: 'passed'; ms: number; time: number }
  | { state: 'failed'; ms: number; time: number; reason: string; message?: StoredMessage };

/**
 * test_result (issue 28) says how the last test went; rows tested before it was stored, or tested by
 * a legacy console's own writes, fall back to new-api's columns (a response time means it answered).
 */
export function lastTest(c: Pick<ChannelRow, 'test_time' | 'response_time' | 'test_result'>): LastTest {
  const r = readChannelTestResult(c.test_result);
  if (r && !r.ok)
    return {
      state: 'failed',
      ms: r.time_ms,
      time: c.test_time,
      reason: r.message ?? '',
      ...(r.reason ? { message: r.reason } : {}),
    };
  if (r) return { state: 'passed', ms: r.time_ms, time: c.test_time };
  if (c.response_time > 0) return { state: 'passed', ms: c.response_time, time: c.test_time };
  return { state: 'untested' };
}

/**
 * What happened last on a channel (issue 45): its last test, or the relay's latest call when that came
 * later (a call in the same second as the test counts as later: tests are run before calls are judged),
 * so a channel whose one test failed but that serves calls is not shown as failing, and a failing
 * channel whose test passed an hour ago is.
 */
export type LastOutcome =
  | { source: 'test'; test: LastTest }
  | { source: 'call'; ok: true; time: number; test: LastTest }
  | { source: 'call'; ok: false; time: number; test: LastTest; status: number; message: string; zh?: string };

export function lastOutcome(
  c: Pick<ChannelRow, 'test_time' | 'response_time' | 'test_result'> & {
    last_calls?: ChannelRow['last_calls'];
  },
): LastOutcome {
  const test = lastTest(c);
  const testedAt = test.state === 'untested' ? 0 : test.time;
  const calls = c.last_calls;
  if (!calls) return { source: 'test', test };
  const callAt = Math.max(calls.ok_at, calls.failed_at);
  if (callAt === 0 || callAt < testedAt) return { source: 'test', test };
  if (calls.ok_at >= calls.failed_at) return { source: 'call', ok: true, time: calls.ok_at, test };
  const f = calls.failure;
  return {
    source: 'call',
    ok: false,
    time: calls.failed_at,
    test,
    status: f?.status ?? 0,
    message: f?.message ?? '',
    ...(f?.zh ? { zh: f.zh } : {}),
  };
}

/** The row shows a failure: the last test failed and no call came after it, or the latest call failed. */
export const showsFailure = (o: LastOutcome) => (o.source === 'test' ? o.test.state === 'failed' : !o.ok);
