import type { Db, NewLog, TaskRow } from '../../db/types.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Reservation } from '../../domains/billing/reserve.service.ts';
import type { Settlement } from '../../domains/billing/settle.service.ts';
import { isAppError } from '../../errors.ts';
import { quotaShortfall, relayErrorOfApp } from '../errors.ts';
import { payerOf, type RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';
import { claimTask, releaseTask, type TaskTable } from './task-ledger.repo.ts';

/*
 * One lifecycle for asynchronous tasks (issue 40): reserve -> submit upstream -> keep the charge with
 * the task row in one transaction (or refund it all) -> poll under a lease with backoff -> settle or
 * refund exactly once (task-ledger.repo.ts moves the money; the caller's conditional status change
 * makes it once) -> fail and refund what runs past the timeout. Video, Midjourney and Suno all run on
 * it; each keeps only its own upstream protocol (what to send, how to read a poll's answer).
 */

/** Reserves a task's price from whoever pays (wallet or subscription pool, a limited token too); a shortfall is a 403 saying how much. */
export async function reserveForTask(rt: RelayRuntime, p: RelayPrincipal, quota: number): Promise<Reservation> {
  try {
    return await rt.deps.services.billing.reserve(payerOf(p), quota);
  } catch (err) {
    if (isAppError(err))
      throw (
        quotaShortfall(err, rt.deps.services.options.get, false) ??
        relayErrorOfApp(err, 403, err.detail ?? 'insufficient_quota')
      );
    throw err;
  }
}

/** What to keep once the upstream accepted: the consume log row and the task row, written with the charge. */
export interface Accepted {
  channelId: number;
  log: (s: Settlement) => NewLog;
  /** Inserts the task row, in the charge's transaction. */
  row: (trx: Db) => Promise<void>;
}

/**
 * Reserve -> `send` -> on acceptance the reserved amount becomes the charge, with its log row and the
 * task row in ONE transaction (a crash keeps all three or none; none leaves the reservation, refunded at
 * the restart); a refusal (a throw from `send`, or an answer `accepted` says no to: Midjourney and Suno
 * pass the upstream's refusal on to the client as it came) or a failed write gives the whole
 * reservation back.
 */
export async function chargeOnAccept<T>(
  rt: RelayRuntime,
  p: RelayPrincipal,
  quota: number,
  send: (reservation: Reservation) => Promise<T>,
  keep: (sent: T, reservation: Reservation) => Accepted,
  accepted: (sent: T) => boolean = () => true,
): Promise<T> {
  const { billing } = rt.deps.services;
  const reservation = await reserveForTask(rt, p, quota);
  let sent: T;
  try {
    sent = await send(reservation);
  } catch (err) {
    await billing.refund(reservation);
    throw err;
  }
  if (!accepted(sent)) {
    await billing.refund(reservation);
    return sent;
  }
  try {
    const k = keep(sent, reservation);
    await billing.settle(reservation, quota, k.channelId, k.log, k.row);
  } catch (err) {
    await billing.refund(reservation);
    throw err;
  }
  return sent;
}

/**
 * Seconds until the next poll of a task this old: a new one every few seconds (a client watching it
 * sees progress), a long one once a minute (jobs of minutes; the upstream is not hammered).
 */
export function backoffFor(ageS: number): number {
  if (ageS < 60) return 3;
  if (ageS < 300) return 10;
  if (ageS < 900) return 30;
  return 60;
}

/** How long a claim holds: longer than one upstream poll may take (60 s), short enough that a dead instance's rows return soon. */
export const LEASE_S = 90;
const BATCH = 200;
/** Most rows one batched upstream read asks about (Midjourney-proxy's list-by-condition, Suno's fetch). */
export const POLL_MANY_MAX = 100;

/** What the leased poll reads of a row: its id, its channel and when it was submitted. */
export interface LeasedRow {
  id: number;
  channel_id: number;
  submit_time: number;
}

interface LeasedPollBase<R extends LeasedRow> {
  /** The table the rows (and their leases) are in: `tasks` (video, Suno) unless said (Midjourney's own). */
  table?: TaskTable;
  /** Unfinished rows whose next poll is due and that no instance holds. */
  due(now: number, limit: number): Promise<R[]>;
  /** Seconds after submission at which a task is failed and refunded. */
  timeoutS(): number;
  /** The row's submission in unix seconds (default `submit_time`; Midjourney's are milliseconds). */
  submittedAt?(row: R): number;
  /** Fails and refunds a row past the timeout (once). */
  expire(row: R, timeoutS: number): Promise<unknown>;
}

/**
 * How a claimed row is asked about: `poll` one upstream call per row (video: its upstreams have no batch
 * read), or `pollMany` one call for up to POLL_MANY_MAX claimed rows of one channel (Midjourney, Suno),
 * applying each row's answer; a row the answer does not mention waits for its next turn. Either way a
 * final answer settles a row once.
 */
export type LeasedPoll<R extends LeasedRow = TaskRow> = LeasedPollBase<R> &
  ({ poll(row: R): Promise<unknown>; pollMany?: never } | { pollMany(rows: R[]): Promise<unknown>; poll?: never });

/** Due rows in the order they are claimed: one per row, or per channel in batches for a batched read. */
function batchesOf<R extends LeasedRow>(rows: R[], batched: boolean): R[][] {
  if (!batched) return rows.map((r) => [r]);
  const byChannel = new Map<number, R[]>();
  for (const r of rows) {
    const list = byChannel.get(Number(r.channel_id)) ?? [];
    list.push(r);
    byChannel.set(Number(r.channel_id), list);
  }
  const out: R[][] = [];
  for (const list of byChannel.values())
    for (let i = 0; i < list.length; i += POLL_MANY_MAX) out.push(list.slice(i, i + POLL_MANY_MAX));
  return out;
}

/**
 * A poll job for the task poller: claims each due row with a lease (a conditional update, so one
 * instance polls it at a time), expires it or polls it (alone, or with its channel's other claimed rows
 * in one upstream read), and schedules each row's next poll by its age. A batch is claimed just before
 * its read, so its leases cover that read only. Rows live in the table, so a restarted instance resumes
 * them; a throw leaves the rows for their next turn.
 */
export function createLeasedPollJob<R extends LeasedRow>(rt: RelayRuntime, plan: LeasedPoll<R>) {
  const { db } = rt.deps;
  const table = plan.table ?? 'tasks';
  const submittedAt = plan.submittedAt ?? ((row: R) => Number(row.submit_time));
  const ask = plan.pollMany ? plan.pollMany : (rows: R[]) => plan.poll!(rows[0]);
  return async () => {
    const now = nowSeconds();
    const timeoutS = plan.timeoutS();
    for (const batch of batchesOf(await plan.due(now, BATCH), Boolean(plan.pollMany))) {
      const claimed: R[] = [];
      for (const row of batch) if (await claimTask(db, Number(row.id), now, LEASE_S, table)) claimed.push(row);
      const live: R[] = [];
      for (const row of claimed) {
        if (now - submittedAt(row) < timeoutS) {
          live.push(row);
          continue;
        }
        try {
          await plan.expire(row, timeoutS);
        } catch (err) {
          rt.deps.log.warn({ err, table, id: row.id }, 'task expiry failed');
        }
      }
      try {
        if (live.length) await ask(live);
      } catch (err) {
        rt.deps.log.warn({ err, table, ids: live.map((r) => r.id) }, 'task poll failed');
      } finally {
        for (const row of claimed)
          await releaseTask(db, Number(row.id), nowSeconds() + backoffFor(now - submittedAt(row)), table);
      }
    }
  };
}
