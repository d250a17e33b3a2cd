import { serverText } from '../../../../shared/server-messages.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { videoCoreOf } from './service.ts';
import { claimVideo, dueVideos, releaseVideo, settleVideo } from './video-tasks.repo.ts';

/** Rows one poll run takes (the rest wait for the next run, oldest schedule first). */
const BATCH = 200;
/** How long a claim holds: longer than one upstream poll may take, short enough that a dead instance's rows return soon. */
export const LEASE_S = 90;

/**
 * Seconds until the next poll of a job this old: a new job every few seconds (a client watching it
 * sees progress), a long one once a minute (video jobs take minutes; the upstream is not hammered).
 */
export function backoffFor(ageS: number): number {
  if (ageS < 60) return 3;
  if (ageS < 300) return 10;
  if (ageS < 900) return 30;
  return 60;
}

/**
 * The video poll job (on the task poller): claims due jobs with a lease, polls each upstream once
 * (a final answer settles or refunds through the service, exactly once), and fails and refunds a
 * job older than TaskTimeoutMinutes. A job whose channel is gone or whose poll throws waits for its
 * next turn; the timeout ends it at last. Rows live in the table, so a restarted instance resumes them.
 */
export function createVideoPollJob(rt: RelayRuntime) {
  const core = videoCoreOf(rt);
  const { db } = rt.deps;
  return async () => {
    const now = nowSeconds();
    const timeoutS = rt.deps.services.options.get('TaskTimeoutMinutes') * 60;
    for (const row of await dueVideos(db, now, BATCH)) {
      if (!(await claimVideo(db, Number(row.id), now, LEASE_S))) continue;
      const age = now - Number(row.submit_time);
      try {
        if (age >= timeoutS) {
          await settleVideo(db, row, {
            status: 'FAILURE',
            finalQuota: 0,
            failReason: serverText('task.timed_out', { minutes: Math.round(timeoutS / 60) }),
          });
        } else {
          await core.refresh(row);
        }
      } catch (err) {
        rt.deps.log.warn({ err, task: row.task_id }, 'video poll failed');
      } finally {
        await releaseVideo(db, Number(row.id), nowSeconds() + backoffFor(age));
      }
    }
  };
}
