import { i18n } from '@lingui/core';
import { useState } from 'react';
import { LogType } from '../../../shared/constants.ts';
import { getStoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { type ImageAsk, type Picture, runImages } from './image-job.ts';

/** The log row is written a moment after the answer (log-writer batches for 50 ms): read it a few times. */
const COST_TRIES = 6;
const COST_WAIT_MS = 400;

const headers = () => ({
  'New-Api-User': String(getStoredUser()?.id ?? -1),
  // Refusals come in the console's language, as the chat tab's do.
  'Accept-Language': i18n.locale === 'zh' ? 'zh-CN,zh;q=0.9' : 'en',
});

export interface ImageRun {
  model: string;
  size: string;
  edit: boolean;
  pictures: Picture[];
  /** What the call cost, from its log row; null while it is read (or when it cannot be found). */
  quota: number | null;
}

/** One image call at a time: generate or edit, then the pictures and what they cost. */
export function useImageJob() {
  const utils = trpc.useUtils();
  const [run, setRun] = useState<ImageRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The call's own log row, found by its request id among the user's newest rows of the model. */
  async function costOf(model: string, requestId: string): Promise<number | null> {
    if (!requestId) return null;
    for (let i = 0; i < COST_TRIES; i++) {
      const page = await utils.logs.list.fetch(
        { type: LogType.Consume, model_name: model, p: 1, page_size: 10 },
        { staleTime: 0 },
      );
      const row = page.items.find((r) => r.request_id === requestId);
      if (row) return row.quota;
      await new Promise((r) => setTimeout(r, COST_WAIT_MS));
    }
    return null;
  }

  async function submit(ask: ImageAsk) {
    setBusy(true);
    setError(null);
    setRun(null);
    try {
      const result = await runImages(ask, headers());
      setRun({ model: ask.model, size: ask.size, edit: ask.image !== null, pictures: result.pictures, quota: null });
      const quota = await costOf(ask.model, result.requestId).catch(() => null);
      setRun((r) => r && { ...r, quota });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return { run, error, busy, submit };
}
