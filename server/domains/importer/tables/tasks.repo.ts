import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { Row, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { int, str, unixSeconds } from './values.rules.ts';

/*
 * Asynchronous jobs: new-api's tasks (Suno, video: Kling, Jimeng, Vidu, Sora...; its status names are ours:
 * NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE) and Midjourney's own table. A finished job keeps
 * its result for the user's task page; an unfinished one is picked up by our poller (lease and backoff start
 * free), which settles or refunds it once, as the running new-api would have.
 */

const json = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : str(v));

const mapTask = (r: Row) => ({
  id: int(r.id),
  created_at: unixSeconds(r.created_at) ?? 0,
  updated_at: unixSeconds(r.updated_at) ?? 0,
  task_id: str(r.task_id),
  platform: str(r.platform),
  user_id: int(r.user_id),
  channel_id: int(r.channel_id),
  quota: int(r.quota),
  action: str(r.action),
  status: str(r.status) || 'NOT_START',
  fail_reason: str(r.fail_reason),
  submit_time: int(r.submit_time),
  start_time: int(r.start_time),
  finish_time: int(r.finish_time),
  progress: str(r.progress),
  properties: json(r.properties),
  data: json(r.data),
  lease_until: 0,
  next_poll_at: 0,
});

const mapMidjourney = (r: Row) => ({
  id: int(r.id),
  code: int(r.code),
  user_id: int(r.user_id),
  action: str(r.action),
  mj_id: str(r.mj_id),
  prompt: str(r.prompt),
  prompt_en: str(r.prompt_en),
  description: str(r.description),
  state: str(r.state),
  submit_time: int(r.submit_time),
  start_time: int(r.start_time),
  finish_time: int(r.finish_time),
  image_url: str(r.image_url),
  status: str(r.status),
  progress: str(r.progress),
  fail_reason: str(r.fail_reason),
  channel_id: int(r.channel_id),
  quota: int(r.quota),
  buttons: json(r.buttons),
  properties: json(r.properties),
  lease_until: 0,
  next_poll_at: 0,
});

export const tasksImporter: TableImporter = {
  name: 'tasks',
  sourceTable: 'tasks',
  optional: true,
  importBatch(trx, rows, ctx) {
    if (rows.some((r) => str(r.private_data)))
      ctx.note('tasks.private_data: upstream-private task data has no place here and is not imported');
    return upsertById(trx, 'tasks', rows.map(mapTask));
  },
  finish: moveSequenceOnPostgres('tasks'),
};

export const midjourneysImporter: TableImporter = {
  name: 'midjourneys',
  sourceTable: 'midjourneys',
  optional: true,
  importBatch(trx, rows, ctx) {
    if (rows.some((r) => str(r.video_url) || str(r.video_urls)))
      ctx.note('midjourneys.video_url(s): Midjourney video links have no column here; the jobs keep their image_url');
    return upsertById(trx, 'midjourneys', rows.map(mapMidjourney));
  },
  finish: moveSequenceOnPostgres('midjourneys'),
};
