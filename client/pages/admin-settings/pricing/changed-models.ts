import type { Values } from '../form/fields.ts';

/*
 * What the pricing form has changed, by model (the unsaved-changes bar lists models, not JSON keys):
 * a model is changed when any of its entries in the edited price maps differs from the saved one.
 */

const parse = (text: string | undefined): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** The numbers of a price map's JSON text (the preset rule's input); anything unreadable is left out. */
export function numberMap(text: string | undefined): Record<string, number> {
  const v = parse(text) ?? {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/** Changed model names, sorted; a key whose edited text is not a JSON object is named as the key. */
export function changedModels(saved: Values, values: Values, keys: readonly string[]): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    if ((saved[key] ?? '') === (values[key] ?? '')) continue;
    const before = parse(saved[key]) ?? {};
    const after = parse(values[key]);
    if (!after) {
      out.add(key);
      continue;
    }
    for (const m of new Set([...Object.keys(before), ...Object.keys(after)])) if (before[m] !== after[m]) out.add(m);
  }
  return [...out].sort();
}
