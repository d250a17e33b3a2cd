import { serverText } from '../../../../shared/server-messages.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { createLeasedPollJob } from '../lifecycle.ts';
import { videoCoreOf } from './service.ts';
import { dueVideos, settleVideo } from './video-tasks.repo.ts';

/**
 * The video poll job (on the video poller, tasks/routes.ts): the leased poll of the task lifecycle
 * over unfinished video rows. A final answer settles or refunds through the service, exactly once;
 * a job older than TaskTimeoutMinutes is failed and refunded in full. A job whose channel is gone or
 * whose poll throws waits for its next turn; the timeout ends it at last.
 */
export function createVideoPollJob(rt: RelayRuntime) {
  const core = videoCoreOf(rt);
  const { db } = rt.deps;
  return createLeasedPollJob(rt, {
    due: (now, limit) => dueVideos(db, now, limit),
    timeoutS: () => rt.deps.services.options.get('TaskTimeoutMinutes') * 60,
    poll: (row) => core.refresh(row),
    expire: (row, timeoutS) =>
      settleVideo(db, row, {
        status: 'FAILURE',
        finalQuota: 0,
        failReason: serverText('task.timed_out', { minutes: Math.round(timeoutS / 60) }),
      }),
  });
}
