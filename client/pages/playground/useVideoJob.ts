import { i18n } from '@lingui/core';
import { useEffect, useRef, useState } from 'react';
import { getStoredUser } from '../../lib/user.ts';
import { isFinal, readVideo, submitVideo, type VideoAsk, type VideoJob } from './video-job.ts';

/** How often a running job is read back; reading refreshes it from the upstream when stale. */
const POLL_MS = 2000;

const headers = () => ({
  'New-Api-User': String(getStoredUser()?.id ?? -1),
  // Refusals come in the console's language, as the chat tab's do.
  'Accept-Language': i18n.locale === 'zh' ? 'zh-CN,zh;q=0.9' : 'en',
});

/** One video job at a time: submit, then poll until completed or failed. */
export function useVideoJob() {
  const [job, setJob] = useState<VideoJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!job || isFinal(job)) return;
    timer.current = setTimeout(() => {
      readVideo(job.id, headers()).then(setJob, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    }, POLL_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [job]);

  async function submit(ask: VideoAsk) {
    setSubmitting(true);
    setError(null);
    setJob(null);
    try {
      setJob(await submitVideo(ask, headers()));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSubmitting(false);
    }
  }

  return { job, error, submitting, busy: submitting || (job !== null && !isFinal(job)), submit };
}
