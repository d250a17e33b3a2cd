import { z } from 'zod';

/*
 * Inputs of the drawing and music task lists (api-contract §13): `p` is 0-based,
 * the page size is fixed at 10, filters are optional and an empty query value
 * means "not given" (new-api consoles send every key).
 */

export const TASK_PAGE_SIZE = 10;

const optInt = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v, ctx) => {
    // Today's console sends `NaN` for an empty date (parseInt of an unparsable date): not given.
    if (v === undefined || (typeof v === 'string' && (v.trim() === '' || v.trim() === 'NaN'))) return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: '参数必须是整数' });
      return z.NEVER;
    }
    return n;
  });

const optText = z
  .string()
  .max(200)
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const page = optInt.transform((v) => Math.max(0, v ?? 0));

export const mjListInput = z.object({
  p: page,
  channel_id: optInt,
  mj_id: optText,
  start_timestamp: optInt,
  end_timestamp: optInt,
});
export type MjListInput = z.infer<typeof mjListInput>;

export const taskListInput = z.object({
  p: page,
  channel_id: optInt,
  task_id: optText,
  status: optText,
  action: optText,
  platform: optText,
  start_timestamp: optInt,
  end_timestamp: optInt,
});
export type TaskListInput = z.infer<typeof taskListInput>;

/** Drawing actions (console spec §4). */
export const MJ_ACTIONS = [
  'IMAGINE',
  'UPSCALE',
  'VARIATION',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'PAN',
  'DESCRIBE',
  'BLEND',
  'UPLOAD',
  'SHORTEN',
  'REROLL',
  'INPAINT',
  'ZOOM',
  'CUSTOM_ZOOM',
  'MODAL',
  'SWAP_FACE',
] as const;
export type MjAction = (typeof MJ_ACTIONS)[number];

export const TASK_STATUSES = [
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'UNKNOWN',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
