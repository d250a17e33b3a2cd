import type { TaskRow } from './tasks.table.ts';

/*
 * What the console's task log shows of a video job (issue 40) beyond new-api's columns: the seconds
 * (requested while running, produced once finished) and the size, from the row's public properties
 * (the video service writes them beside new-api's `input` and `origin_model_name`). Suno tasks have none.
 */

/** new-api stores a video task's platform as its channel type number ("55" for Sora). */
export const isVideoPlatform = (platform: string) => /^\d+$/.test(platform);

export interface VideoTaskSummary {
  /** 0 when unknown. */
  seconds: number;
  /** The pixel size, else the resolution; '' when unknown. */
  size: string;
}

export function videoTaskSummary(row: Pick<TaskRow, 'platform' | 'properties'>): VideoTaskSummary | null {
  if (!isVideoPlatform(row.platform)) return null;
  let props: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(row.properties || '{}');
    if (v && typeof v === 'object') props = v as Record<string, unknown>;
  } catch {
    // An unparsable column shows as unknown rather than failing the whole list.
  }
  const seconds = Number(props.seconds);
  const size = [props.size, props.resolution].find((v): v is string => typeof v === 'string' && v !== '');
  return { seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 0, size: size ?? '' };
}

/**
 * new-api's `result_url` of a finished video task (its 2026 console's task log plays it with "点击预览视频"):
 * the gateway's own content route, which streams the file with the session's cookie, never the upstream's URL.
 */
export function videoResultUrl(row: Pick<TaskRow, 'platform' | 'status' | 'task_id'>, base: string) {
  if (!isVideoPlatform(row.platform) || row.status !== 'SUCCESS') return undefined;
  return `${base}/pg/videos/${encodeURIComponent(row.task_id)}/content`;
}
