import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** Labels and colours of drawing actions, submit codes and statuses (console spec §4). */
export const actionMeta: Record<string, { label: MessageDescriptor; color: string }> = {
  IMAGINE: { label: msg`Imagine`, color: 'blue' },
  UPSCALE: { label: msg`Upscale`, color: 'orange' },
  VARIATION: { label: msg`Variation`, color: 'violet' },
  HIGH_VARIATION: { label: msg`Strong variation`, color: 'violet' },
  LOW_VARIATION: { label: msg`Subtle variation`, color: 'violet' },
  PAN: { label: msg`Pan`, color: 'cyan' },
  DESCRIBE: { label: msg`Describe`, color: 'yellow' },
  BLEND: { label: msg`Blend`, color: 'lime' },
  UPLOAD: { label: msg`Upload`, color: 'blue' },
  SHORTEN: { label: msg`Shorten`, color: 'pink' },
  REROLL: { label: msg`Reroll`, color: 'indigo' },
  INPAINT: { label: msg`Inpaint`, color: 'violet' },
  ZOOM: { label: msg`Zoom`, color: 'teal' },
  CUSTOM_ZOOM: { label: msg`Custom zoom`, color: 'teal' },
  MODAL: { label: msg`Modal`, color: 'green' },
  SWAP_FACE: { label: msg`Swap face`, color: 'grape' },
};

export const codeMeta: Record<number, { label: MessageDescriptor; color: string }> = {
  1: { label: msg`Submitted`, color: 'green' },
  21: { label: msg`Waiting`, color: 'lime' },
  22: { label: msg`Duplicate`, color: 'orange' },
  0: { label: msg`Not submitted`, color: 'yellow' },
};

export const statusMeta: Record<string, { label: MessageDescriptor; color: string }> = {
  SUCCESS: { label: msg`Success`, color: 'green' },
  NOT_START: { label: msg`Not started`, color: 'gray' },
  SUBMITTED: { label: msg`Queued`, color: 'yellow' },
  IN_PROGRESS: { label: msg`In progress`, color: 'blue' },
  FAILURE: { label: msg`Failed`, color: 'red' },
  MODAL: { label: msg`Waiting for input`, color: 'yellow' },
};

/** Whole seconds between two millisecond times; null while unfinished. */
export function durationSeconds(submitMs: number, finishMs: number): number | null {
  if (!submitMs || !finishMs || finishMs < submitMs) return null;
  return Math.round((finishMs - submitMs) / 1000);
}
