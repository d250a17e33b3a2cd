import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `midjourneys`, `tasks` (joined into `Database` by server/db/types.ts). */

export interface MidjourneysTable {
  id: Id;
  code: Defaulted<number>;
  user_id: Defaulted<number>;
  action: Defaulted<string>;
  mj_id: Defaulted<string>;
  prompt: Defaulted<string>;
  prompt_en: Defaulted<string>;
  description: Defaulted<string>;
  state: Defaulted<string>;
  submit_time: Defaulted<number>;
  start_time: Defaulted<number>;
  finish_time: Defaulted<number>;
  image_url: Defaulted<string>;
  status: Defaulted<string>;
  progress: Defaulted<string>;
  fail_reason: Defaulted<string>;
  channel_id: Defaulted<number>;
  quota: Defaulted<number>;
  buttons: Defaulted<string>;
  properties: Defaulted<string>;
  /** The task lifecycle's poll claim and backoff, unix seconds (0 = free / due), as on `tasks`. */
  lease_until: Defaulted<number>;
  next_poll_at: Defaulted<number>;
}

export interface TasksTable {
  id: Id;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
  task_id: Defaulted<string>;
  platform: Defaulted<string>;
  user_id: Defaulted<number>;
  channel_id: Defaulted<number>;
  quota: Defaulted<number>;
  action: Defaulted<string>;
  status: Defaulted<string>;
  fail_reason: Defaulted<string>;
  submit_time: Defaulted<number>;
  start_time: Defaulted<number>;
  finish_time: Defaulted<number>;
  progress: Defaulted<string>;
  properties: Defaulted<string>;
  data: Defaulted<string>;
  /** Every task (issue 40): an instance's poll claim and the backoff, unix seconds (0 = free / due). */
  lease_until: Defaulted<number>;
  next_poll_at: Defaulted<number>;
}

export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
