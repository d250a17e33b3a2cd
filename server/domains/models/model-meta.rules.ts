import { NAME_RULES, type NameRule } from '../../../shared/schemas/model-meta.ts';
import { splitList } from '../../../shared/schemas/common.ts';
import { badRequest } from '../../errors.ts';
import { isImageModel } from '../../../shared/image-models.ts';

/*
 * Pure rules of the model marketplace: which metadata row describes a served model (name rules),
 * how tags and endpoints are stored, and which API doors the pricing page lists for a model.
 */

export const MODEL_NAME_MAX = 128;
export const ICON_MAX = 128;
export const TAGS_MAX = 255;

/** The fields name matching needs. */
export interface MetaMatchable {
  model_name: string;
  name_rule: number;
}

const RULE_ORDER: NameRule[] = [NAME_RULES.prefix, NAME_RULES.suffix, NAME_RULES.contains];

function matches(rule: number, pattern: string, model: string): boolean {
  if (rule === NAME_RULES.prefix) return model.startsWith(pattern);
  if (rule === NAME_RULES.suffix) return model.endsWith(pattern);
  if (rule === NAME_RULES.contains) return model.includes(pattern);
  return model === pattern;
}

/**
 * An index answering "which row describes this model": an exact row first, then rules in new-api's
 * order (prefix, suffix, contains); among rows of one rule the longest pattern wins (the most
 * specific), then the lower id (the older row), so the answer never depends on list order.
 */
export function metaIndex<T extends MetaMatchable & { id: number }>(rows: readonly T[]) {
  const exact = new Map<string, T>();
  const byRule = new Map<number, T[]>();
  for (const row of rows) {
    if (row.name_rule === NAME_RULES.exact) exact.set(row.model_name, row);
    else byRule.set(row.name_rule, [...(byRule.get(row.name_rule) ?? []), row]);
  }
  for (const list of byRule.values()) list.sort((a, b) => b.model_name.length - a.model_name.length || a.id - b.id);
  return (model: string): T | undefined => {
    const hit = exact.get(model);
    if (hit) return hit;
    for (const rule of RULE_ORDER)
      for (const row of byRule.get(rule) ?? []) if (matches(rule, row.model_name, model)) return row;
    return undefined;
  };
}

/** The models among `served` that a rule row matches (an exact row matches only its own name). */
export const matchedModels = (row: MetaMatchable, served: readonly string[]): string[] =>
  served.filter((m) => matches(row.name_rule, row.model_name, m));

/** Tags as stored: comma-separated, trimmed, without empties or repeats (order kept). */
export function normalizeTags(tags: string | readonly string[] | undefined): string {
  const list = Array.isArray(tags) ? tags.flatMap((t) => splitList(t)) : splitList(tags as string | undefined);
  const text = [...new Set(list)].join(',');
  if (text.length > TAGS_MAX) throw badRequest('model_meta.tags_too_long');
  return text;
}

export const tagsOf = (stored: string): string[] => splitList(stored);

/**
 * Endpoints as stored: '' (not set) or JSON text of an object (type -> {path, method}) or an array of
 * endpoint types, which is what new-api's console writes. Sent as text or as the JSON itself.
 */
export function normalizeEndpoints(v: unknown): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return '';
  let parsed: unknown = v;
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v);
    } catch {
      throw badRequest('model_meta.endpoints_invalid');
    }
  }
  if (typeof parsed !== 'object' || parsed === null) throw badRequest('model_meta.endpoints_invalid');
  return JSON.stringify(parsed);
}

/** The endpoint types a stored endpoints value names (object keys, or array items). */
export function endpointTypesOf(stored: string): string[] {
  if (!stored) return [];
  try {
    const v: unknown = JSON.parse(stored);
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
    return v && typeof v === 'object' ? Object.keys(v) : [];
  } catch {
    return [];
  }
}

/**
 * The API doors Switchyard serves, by new-api's endpoint type names: what the pricing page's
 * `supported_endpoint` map says about each (path and method).
 */
export const SUPPORTED_ENDPOINTS: Record<string, { path: string; method: string }> = {
  openai: { path: '/v1/chat/completions', method: 'POST' },
  'openai-response': { path: '/v1/responses', method: 'POST' },
  anthropic: { path: '/v1/messages', method: 'POST' },
  gemini: { path: '/v1beta/models/{model}:generateContent', method: 'POST' },
  'jina-rerank': { path: '/v1/rerank', method: 'POST' },
  'image-generation': { path: '/v1/images/generations', method: 'POST' },
  embeddings: { path: '/v1/embeddings', method: 'POST' },
  // new-api's name and path for video models (every video door serves them; issue 40).
  'openai-video': { path: '/v1/video/generations', method: 'POST' },
};

/** Chat models reach every chat door: the relay converts between dialects (docs/conversion.md). */
const CHAT_DOORS = ['openai', 'openai-response', 'anthropic', 'gemini'];

/** The doors a model is called through when its metadata names none: read from its name. */
export function defaultEndpointTypes(model: string): string[] {
  if (isImageModel(model)) return ['image-generation'];
  if (/rerank/i.test(model)) return ['jina-rerank'];
  if (/embed/i.test(model)) return ['embeddings'];
  return CHAT_DOORS;
}
