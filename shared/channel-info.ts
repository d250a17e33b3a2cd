import { ChannelStatus } from './constants.ts';

/*
 * Per-key state of a multi-key channel (issue 28), stored as new-api stores it: the channel's
 * `channel_info` JSON. Keys are addressed by their index in the key column; a key absent from
 * `multi_key_status_list` is enabled (new-api removes an entry when it enables a key), 2 is
 * manually disabled and 3 auto-disabled, with the reason and time (unix s) beside it. Nothing here
 * ever removes a key: only an admin's edit of the key list does.
 */

export type MultiKeyMode = 'random' | 'polling';
export const MULTI_KEY_MODES: readonly MultiKeyMode[] = ['random', 'polling'];

export interface ChannelInfo {
  is_multi_key: boolean;
  multi_key_size: number;
  /** index -> 2 (manually disabled) or 3 (auto-disabled); absent = enabled. */
  multi_key_status_list: Record<string, number>;
  multi_key_disabled_reason: Record<string, string>;
  multi_key_disabled_time: Record<string, number>;
  /** new-api's persisted turn; Switchyard keeps the turn per instance in memory and leaves this as stored. */
  multi_key_polling_index: number;
  multi_key_mode: MultiKeyMode;
}

export type KeyStatus = 1 | 2 | 3;

/**
 * The keys of a key column: one per line (new-api) or comma-separated (older consoles). A JSON
 * credential (a service account) is one key whatever it contains; several, one compact JSON per
 * line, are one key each.
 */
export function splitChannelKeys(raw: string): string[] {
  const text = raw.trim();
  if (text.startsWith('{')) {
    // Vertex AI's service accounts, one per line (new-api's JSON array as imported, issue 42).
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return lines.length > 1 && lines.every(isJsonObject) ? lines : [text];
  }
  return text
    .split(text.includes('\n') ? '\n' : ',')
    .map((k) => k.trim())
    .filter(Boolean);
}

const isJsonObject = (line: string) => {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
};

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const parseJson = (text: string | null | undefined): Record<string, unknown> => {
  if (!text || text.trim() === '') return {};
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return {};
  }
};

const modeOf = (v: unknown): MultiKeyMode | undefined => (v === 'polling' || v === 'random' ? v : undefined);

/**
 * The channel's key state, normalised against its current key count: entries past the last key
 * and "enabled" entries are dropped. The key selection mode is channel_info's, else the older
 * `setting` JSON's `multi_key_mode` (Switchyard's place for it before channel_info), else random.
 */
export function readChannelInfo(
  text: string | null | undefined,
  keyCount: number,
  setting?: string | null,
): ChannelInfo {
  const o = parseJson(text);
  const statuses = asRecord(o.multi_key_status_list);
  const reasons = asRecord(o.multi_key_disabled_reason);
  const times = asRecord(o.multi_key_disabled_time);
  const info: ChannelInfo = {
    is_multi_key: keyCount > 1,
    multi_key_size: keyCount,
    multi_key_status_list: {},
    multi_key_disabled_reason: {},
    multi_key_disabled_time: {},
    multi_key_polling_index: Number(o.multi_key_polling_index) || 0,
    multi_key_mode: modeOf(o.multi_key_mode) ?? modeOf(parseJson(setting).multi_key_mode) ?? 'random',
  };
  for (const [k, v] of Object.entries(statuses)) {
    const i = Number(k);
    const status = Number(v);
    if (!Number.isInteger(i) || i < 0 || i >= keyCount) continue;
    if (status !== ChannelStatus.ManuallyDisabled && status !== ChannelStatus.AutoDisabled) continue;
    info.multi_key_status_list[i] = status;
    if (typeof reasons[k] === 'string') info.multi_key_disabled_reason[i] = reasons[k];
    if (Number(times[k]) > 0) info.multi_key_disabled_time[i] = Number(times[k]);
  }
  return info;
}

export const keyStatusOf = (info: ChannelInfo, index: number): KeyStatus =>
  (info.multi_key_status_list[index] as KeyStatus | undefined) ?? 1;

/** Indices of the enabled keys, in key order. */
export const enabledKeyIndices = (info: ChannelInfo): number[] =>
  Array.from({ length: info.multi_key_size }, (_, i) => i).filter((i) => keyStatusOf(info, i) === 1);

const copyInfo = (info: ChannelInfo): ChannelInfo => ({
  ...info,
  multi_key_status_list: { ...info.multi_key_status_list },
  multi_key_disabled_reason: { ...info.multi_key_disabled_reason },
  multi_key_disabled_time: { ...info.multi_key_disabled_time },
});

/** The key at `index` disabled (2 by an admin, 3 automatically) with its reason and time. */
export function withKeyDisabled(info: ChannelInfo, index: number, status: 2 | 3, reason: string, time: number) {
  const next = copyInfo(info);
  next.multi_key_status_list[index] = status;
  next.multi_key_disabled_reason[index] = reason.slice(0, 500);
  next.multi_key_disabled_time[index] = time;
  return next;
}

/** The key at `index` enabled again: its entries removed, as new-api does. */
export function withKeyEnabled(info: ChannelInfo, index: number): ChannelInfo {
  const next = copyInfo(info);
  delete next.multi_key_status_list[index];
  delete next.multi_key_disabled_reason[index];
  delete next.multi_key_disabled_time[index];
  return next;
}

/**
 * The state after an admin's edit of the key list: a key still present (matched by value, the
 * n-th copy of a repeated key to its n-th copy) keeps its status, reason and time; new keys are
 * enabled; removed keys go with their state.
 */
export function carryKeyStates(oldKeys: string[], oldInfo: ChannelInfo, newKeys: string[]): ChannelInfo {
  const byKey = new Map<string, number[]>();
  oldKeys.forEach((k, i) => byKey.set(k, [...(byKey.get(k) ?? []), i]));
  const next: ChannelInfo = {
    ...oldInfo,
    is_multi_key: newKeys.length > 1,
    multi_key_size: newKeys.length,
    multi_key_status_list: {},
    multi_key_disabled_reason: {},
    multi_key_disabled_time: {},
    multi_key_polling_index: 0,
  };
  newKeys.forEach((k, i) => {
    const old = byKey.get(k)?.shift();
    if (old === undefined) return;
    const status = oldInfo.multi_key_status_list[old];
    if (status === undefined) return;
    next.multi_key_status_list[i] = status;
    if (oldInfo.multi_key_disabled_reason[old] !== undefined)
      next.multi_key_disabled_reason[i] = oldInfo.multi_key_disabled_reason[old];
    if (oldInfo.multi_key_disabled_time[old] !== undefined)
      next.multi_key_disabled_time[i] = oldInfo.multi_key_disabled_time[old];
  });
  return next;
}

/** A key as the console may show it: `sk-ab…wxyz` (short keys show less). Never the whole key. */
export function maskKey(key: string): string {
  if (key.length >= 16) return `${key.slice(0, 5)}…${key.slice(-4)}`;
  if (key.length >= 8) return `${key.slice(0, 3)}…${key.slice(-2)}`;
  return `${key.slice(0, 1)}…`;
}
