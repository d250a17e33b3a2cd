/*
 * Public preset ratio files (spec: presets flexible, openrouter, mixed and legacy,
 * each a prompt and a completion JSON file) on an asset host the admin names. The
 * console may run offline, so every failure is one friendly message.
 */

export const PRESETS = ['flexible', 'openrouter', 'mixed', 'legacy'] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_BASE_KEY = 'settings-preset-ratio-base';

const TIMEOUT_MS = 10_000;

function asRatioMap(v: unknown): Record<string, number> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a ratio map');
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v)) if (typeof n === 'number' && n >= 0) out[k] = n;
  return out;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), credentials: 'omit' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/** `${base}/${preset}/prompt.json` and `.../completion.json`: model → ratio maps. */
export async function fetchPreset(base: string, preset: Preset) {
  const root = base.replace(/\/+$/, '');
  const [prompt, completion] = await Promise.all([
    getJson(`${root}/${preset}/prompt.json`),
    getJson(`${root}/${preset}/completion.json`),
  ]);
  return { modelRatio: asRatioMap(prompt), completionRatio: asRatioMap(completion) };
}

/** Preset values fill in; existing entries win unless `overwrite`. */
export function mergeRatios(currentText: string, preset: Record<string, number>, overwrite: boolean): string {
  let current: Record<string, number> = {};
  try {
    current = JSON.parse(currentText || '{}') as Record<string, number>;
  } catch {
    // An invalid editor value is replaced by the merge.
  }
  const merged = overwrite ? { ...current, ...preset } : { ...preset, ...current };
  return JSON.stringify(merged, null, 2);
}
