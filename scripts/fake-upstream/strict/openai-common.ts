/** What OpenAI's Chat Completions and Responses checks share: error bodies, model families, schemas. */
import { isObject, type Json, type StrictRefusal } from './types.ts';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export function openaiError(message: string, param: string | null = null, code: string | null = null): StrictRefusal {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

/** The model name without the fakes' behaviour tokens (`gpt-5+fail-500` -> `gpt-5`). */
export const baseModel = (model: unknown) =>
  String(model ?? '')
    .split('+')[0]
    .toLowerCase();

/** o-series and gpt-5 models reason; gpt-5-chat(-latest) is the chat model without reasoning. */
export const isReasoningModel = (model: string) =>
  /^o\d/.test(model) || (/^gpt-5/.test(model) && !/^gpt-5(\.\d+)?-chat/.test(model));

/** The efforts each reasoning family takes, in OpenAI's order. */
export function effortsOf(model: string): string[] {
  if (/^o\d/.test(model)) return ['low', 'medium', 'high'];
  if (/^gpt-5(-|$)/.test(model)) return ['minimal', 'low', 'medium', 'high'];
  return ['none', 'low', 'medium', 'high', 'xhigh'];
}

/** `'a', 'b', and 'c'` as OpenAI lists supported values. */
export function quoteList(values: string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length < 3 ? q.join(' and ') : `${q.slice(0, -1).join(', ')}, and ${q.at(-1)}`;
}

/** Sampling parameters reasoning models refuse (temperature/top_p only when not the default 1). */
export const REASONING_REFUSED = ['presence_penalty', 'frequency_penalty', 'logprobs', 'top_logprobs', 'logit_bias'];

const JSON_SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * OpenAI's check of a function's `parameters`: a JSON Schema whose root is `type: "object"` and whose
 * types are JSON Schema's lowercase names (Gemini's OpenAPI-style `"OBJECT"` is refused). With
 * `strict`, every object needs `additionalProperties: false` and all its properties required.
 */
export function checkFunctionSchema(
  schema: unknown,
  fn: string,
  param: string,
  strict: boolean,
  what = `function '${fn}'`,
): StrictRefusal | null {
  const fail = (msg: string) => openaiError(`Invalid schema for ${what}: ${msg}`, param, 'invalid_function_parameters');
  if (!isObject(schema)) return fail(`schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`);
  if (schema.type !== 'object' && !schema.anyOf)
    return fail(`schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type ?? 'None')}"'.`);
  return walkSchema(schema, [], strict, fail);
}

function walkSchema(
  s: Json,
  context: string[],
  strict: boolean,
  fail: (msg: string) => StrictRefusal,
): StrictRefusal | null {
  const ctx = `In context=(${context.map((c) => `'${c}'`).join(', ')}${context.length === 1 ? ',' : ''})`;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types)
    if (typeof t !== 'string' || !JSON_SCHEMA_TYPES.has(t))
      return fail(`${ctx}, '${String(t)}' is not valid under any of the given schemas.`);
  const props = isObject(s.properties) ? s.properties : undefined;
  if (strict && (types.includes('object') || props)) {
    if (s.additionalProperties !== false)
      return fail(`${ctx}, 'additionalProperties' is required to be supplied and to be false.`);
    const required = Array.isArray(s.required) ? s.required : [];
    const missing = Object.keys(props ?? {}).find((k) => !required.includes(k));
    if (missing !== undefined)
      return fail(
        `${ctx}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`,
      );
  }
  for (const [k, v] of Object.entries(props ?? {}))
    if (isObject(v)) {
      const r = walkSchema(v, [...context, 'properties', k], strict, fail);
      if (r) return r;
    }
  if (isObject(s.items)) {
    const r = walkSchema(s.items, [...context, 'items'], strict, fail);
    if (r) return r;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[key]))
      for (const [i, v] of (s[key] as unknown[]).entries())
        if (isObject(v)) {
          const r = walkSchema(v, [...context, key, String(i)], strict, fail);
          if (r) return r;
        }
  for (const key of ['$defs', 'definitions'] as const)
    if (isObject(s[key]))
      for (const [k, v] of Object.entries(s[key] as Json))
        if (isObject(v)) {
          const r = walkSchema(v, [...context, key, k], strict, fail);
          if (r) return r;
        }
  return null;
}

export const extraKeys = (o: Json, allowed: readonly string[]) => Object.keys(o).filter((k) => !allowed.includes(k));
