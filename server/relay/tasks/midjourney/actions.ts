import { z } from 'zod';
import type { MjAction } from '../../../../shared/schemas/tasks.ts';

/** The price key (ModelPrice entry and channel "model") of each drawing action. */
export const MJ_PRICE_KEY: Record<MjAction, string> = {
  IMAGINE: 'mj_imagine',
  UPSCALE: 'mj_upscale',
  VARIATION: 'mj_variation',
  HIGH_VARIATION: 'mj_high_variation',
  LOW_VARIATION: 'mj_low_variation',
  PAN: 'mj_pan',
  DESCRIBE: 'mj_describe',
  BLEND: 'mj_blend',
  UPLOAD: 'mj_uploads',
  SHORTEN: 'mj_shorten',
  REROLL: 'mj_reroll',
  INPAINT: 'mj_inpaint',
  ZOOM: 'mj_zoom',
  CUSTOM_ZOOM: 'mj_custom_zoom',
  MODAL: 'mj_modal',
  SWAP_FACE: 'swap_face',
};

/** Midjourney-Proxy (2) and Midjourney-Plus (5) channels. */
export const MJ_CHANNEL_TYPES = [2, 5] as const;

/** The `/{mode}/mj/...` prefixes; the upstream gets them as `/mj-{mode}/mj/...` (midjourney-proxy-plus). */
export const MJ_MODES = ['fast', 'relax', 'turbo'] as const;

/** A button's customId names the action it triggers (new-api's mapping). */
export function actionOfCustomId(customId: string): MjAction | null {
  const rules: [string, MjAction][] = [
    ['MJ::JOB::upsample::', 'UPSCALE'],
    ['MJ::JOB::upsample_v', 'UPSCALE'],
    ['MJ::JOB::variation::', 'VARIATION'],
    ['MJ::JOB::high_variation::', 'HIGH_VARIATION'],
    ['MJ::JOB::low_variation::', 'LOW_VARIATION'],
    ['MJ::JOB::reroll::', 'REROLL'],
    ['MJ::JOB::pan_', 'PAN'],
    ['MJ::Outpaint::', 'ZOOM'],
    ['MJ::CustomZoom::', 'CUSTOM_ZOOM'],
    ['MJ::Inpaint::', 'INPAINT'],
  ];
  for (const [prefix, action] of rules) if (customId.startsWith(prefix)) return action;
  return null;
}

const base64Array = z.array(z.string().min(1)).max(10);
/** Keys the gateway keeps for itself (the callback) and passes on otherwise: `.passthrough()`. */
const common = {
  notifyHook: z.string().max(1000).optional(),
  state: z.string().max(1000).optional(),
};

export const mjBodies = {
  imagine: z
    .object({ prompt: z.string().min(1).max(8000), base64Array: base64Array.optional(), ...common })
    .passthrough(),
  describe: z.object({ base64: z.string().min(1), ...common }).passthrough(),
  blend: z.object({ base64Array: base64Array.min(2), ...common }).passthrough(),
  shorten: z.object({ prompt: z.string().min(1).max(8000), ...common }).passthrough(),
  upload: z.object({ base64Array: base64Array.min(1) }).passthrough(),
  swap: z.object({ sourceBase64: z.string().min(1), targetBase64: z.string().min(1), ...common }).passthrough(),
  change: z
    .object({
      taskId: z.string().min(1).max(100),
      action: z.enum(['UPSCALE', 'VARIATION', 'REROLL']),
      index: z.number().int().min(1).max(4).optional(),
      ...common,
    })
    .passthrough(),
  simpleChange: z.object({ content: z.string().min(1).max(200), ...common }).passthrough(),
  action: z
    .object({ taskId: z.string().min(1).max(100), customId: z.string().min(1).max(500), ...common })
    .passthrough(),
  modal: z
    .object({ taskId: z.string().min(1).max(100), prompt: z.string().max(8000).optional(), ...common })
    .passthrough(),
  listByCondition: z.object({ ids: z.array(z.string().max(100)).max(100).default([]) }).passthrough(),
};

/** "1320098173412546 U2" / "V3" / "R": simple-change's text form of change. */
export function parseSimpleChange(content: string): { taskId: string; action: MjAction; index?: number } | null {
  const m = /^\s*(\S+)\s+([UVR])([1-4])?\s*$/i.exec(content);
  if (!m) return null;
  const letter = m[2].toUpperCase();
  const action: MjAction = letter === 'U' ? 'UPSCALE' : letter === 'V' ? 'VARIATION' : 'REROLL';
  if (action !== 'REROLL' && !m[3]) return null;
  return { taskId: m[1], action, index: m[3] ? Number(m[3]) : undefined };
}
