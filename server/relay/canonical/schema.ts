/*
 * Tool and response schemas between dialects (docs/conversion.md § Schemas). The internal form
 * carries JSON Schema. Gemini speaks two things instead:
 *  - its OpenAPI-style `Schema` (`parameters`, `responseSchema`): uppercase types (`"OBJECT"`),
 *    `nullable`, int64 bounds written as strings, and only a subset of keywords;
 *  - plain JSON Schema in `parametersJsonSchema` / `responseJsonSchema` (Gemini CLI sends these),
 *    taken as it is.
 * `jsonSchemaOfGemini` reads the first into JSON Schema (for OpenAI and Anthropic upstreams);
 * `geminiSchemaOf` reduces any JSON Schema to the subset Gemini's `Schema` accepts, keeping every
 * property, `required` entry and description.
 */

export type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Gemini formats that mean nothing in JSON Schema (`enum` is Gemini's marker for an enum; the rest are number widths). */
const GEMINI_ONLY_FORMATS = new Set(['enum', 'int32', 'int64', 'float', 'double']);
/** Gemini's int64 fields, which its REST shape (and @google/genai) writes as strings. */
const INT_KEYWORDS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/**
 * Gemini `Schema` (as `@google/genai` sends `parameters` / `responseSchema`) -> JSON Schema:
 * types lowercased, `nullable` as a `null` type (or a `null` branch of `anyOf`), numeric strings
 * as numbers, `example` as `examples`, Gemini-only keys (`propertyOrdering`, `format: "enum"`,
 * number widths) dropped. Also correct on a schema that is JSON Schema already.
 */
export function jsonSchemaOfGemini(s: unknown): JsonSchema {
  if (!isObject(s)) return {};
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type') {
      const t = typeof v === 'string' ? v.toLowerCase() : v;
      if (t !== 'type_unspecified') out.type = t;
    } else if (k === 'properties' && isObject(v))
      out.properties = Object.fromEntries(Object.entries(v).map(([p, x]) => [p, jsonSchemaOfGemini(x)]));
    else if (k === 'items') out.items = Array.isArray(v) ? v.map(jsonSchemaOfGemini) : jsonSchemaOfGemini(v);
    else if (k === 'anyOf' || k === 'oneOf' || k === 'allOf') out[k] = Array.isArray(v) ? v.map(jsonSchemaOfGemini) : v;
    else if (k === 'format') {
      if (typeof v === 'string' && !GEMINI_ONLY_FORMATS.has(v)) out.format = v;
    } else if (INT_KEYWORDS.has(k)) out[k] = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    else if (k === 'example') out.examples = [v];
    else if (k === 'nullable' || k === 'propertyOrdering') continue;
    else out[k] = v;
  }
  // Gemini's integer enums are strings ({type: INTEGER, format: enum, enum: ["101"]}): back to numbers.
  if ((out.type === 'integer' || out.type === 'number') && Array.isArray(out.enum))
    out.enum = out.enum.map((x) => (typeof x === 'string' && x.trim() !== '' && !isNaN(Number(x)) ? Number(x) : x));
  if (s.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as unknown[]), { type: 'null' }];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

/** `$ref`s are inlined this deep; a deeper (recursive) one becomes an object described by its name. */
export const MAX_REF_DEPTH = 6;

/** Gemini's `Schema` takes only these keys (others are refused as unknown fields or ignored unpredictably). */
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'pattern',
  'propertyOrdering',
]);
/** "only 'enum' and 'date-time' are supported for STRING type" (Claude Code sends `format: "uri"`). */
const GEMINI_FORMATS = new Set(['enum', 'date-time']);

interface RefScope {
  defs: Map<string, unknown>;
  depth: number;
}

/**
 * JSON Schema (an OpenAI or Anthropic tool's parameters, a json_schema response format) -> the
 * subset Gemini's `parameters` / `responseSchema` accept:
 *  - `$ref` to `#/$defs/...` or `#/definitions/...` inlined (MAX_REF_DEPTH deep), `$defs` dropped;
 *  - `type: [T, "null"]` and `anyOf: [..., {type: "null"}]` -> `nullable: true`; several types -> `anyOf`;
 *  - `const` -> a one-value `enum`; enum values written as strings (Gemini's enums are strings);
 *  - `oneOf` -> `anyOf` (looser: "exactly one" becomes "at least one"), `allOf` merged into one schema;
 *  - `format` kept only when `enum` or `date-time`; `$schema`, `additionalProperties`, `default`,
 *    `title`, `examples`, `exclusiveMinimum`... dropped (keys outside GEMINI_KEYWORDS);
 *  - an object without properties loses its empty `properties` (Gemini refuses an empty one).
 * `required` and every `description` are kept; a `required` name with no property is left out
 * (Gemini refuses it).
 */
export function geminiSchemaOf(s: unknown): JsonSchema {
  if (!isObject(s)) return {};
  const defs = new Map<string, unknown>();
  for (const key of ['$defs', 'definitions'])
    if (isObject(s[key])) for (const [n, d] of Object.entries(s[key])) defs.set(`#/${key}/${n}`, d);
  return reduce(s, { defs, depth: 0 });
}

function reduce(input: JsonSchema, scope: RefScope): JsonSchema {
  let s = input;
  if (typeof s.$ref === 'string') {
    const target = scope.defs.get(s.$ref);
    const name = s.$ref.split('/').pop();
    const rest = Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref'));
    if (!isObject(target) || scope.depth >= MAX_REF_DEPTH) {
      const description = s.description ?? (isObject(target) ? target.description : undefined);
      return { type: 'object', description: typeof description === 'string' ? description : `${name} (not expanded)` };
    }
    return reduce({ ...target, ...rest }, { ...scope, depth: scope.depth + 1 });
  }
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, scope);
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && isObject(v)) {
      const props = Object.entries(v).filter(([, x]) => isObject(x));
      if (props.length) out.properties = Object.fromEntries(props.map(([p, x]) => [p, reduce(x as JsonSchema, scope)]));
    } else if (k === 'items') {
      if (isObject(v)) out.items = reduce(v, scope);
      else if (Array.isArray(v) && v.length) out.items = reduce(v.length === 1 ? v[0] : { anyOf: v }, scope);
    } else if (k === 'prefixItems' && Array.isArray(v) && v.length && s.items === undefined)
      out.items = reduce(v.length === 1 ? v[0] : { anyOf: v }, scope);
    else if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(v))
      out.anyOf = v.filter(isObject).map((x) => reduce(x, scope));
    else if (k === 'const') out.enum = [v];
    else if (k === 'format') {
      if (typeof v === 'string' && GEMINI_FORMATS.has(v)) out.format = v;
    } else if (k === 'type' || GEMINI_KEYWORDS.has(k)) out[k] = v;
  }
  if (Array.isArray(out.type)) typeArray(out);
  else if (out.type === 'null') {
    delete out.type;
    out.nullable = true;
  }
  if (Array.isArray(out.anyOf)) nullBranch(out);
  if (Array.isArray(out.enum)) {
    if (out.enum.includes(null)) out.nullable = true;
    out.enum = out.enum.filter((x) => x !== null).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
    out.type ??= 'string';
  }
  if (out.type === undefined && out.properties) out.type = 'object';
  if (Array.isArray(out.required)) {
    const props = out.properties as JsonSchema | undefined;
    const required = out.required.filter((r): r is string => typeof r === 'string' && (!props || r in props));
    if (required.length && props) out.required = required;
    else delete out.required;
  }
  return out;
}

/** `type: ["string", "null"]` -> `type: "string", nullable`; several non-null types -> `anyOf`. */
function typeArray(out: JsonSchema) {
  const types = (out.type as unknown[]).filter((t) => typeof t === 'string');
  const real = types.filter((t) => t !== 'null');
  if (types.length !== real.length) out.nullable = true;
  if (real.length <= 1) {
    if (real.length) out.type = real[0];
    else delete out.type;
    return;
  }
  delete out.type;
  const branches = real.map((t) => ({ type: t }));
  out.anyOf = Array.isArray(out.anyOf) ? [...(out.anyOf as JsonSchema[]), ...branches] : branches;
}

/** `anyOf: [X, {type: "null"}]` (pydantic's Optional) -> X with `nullable: true`, its description kept. */
function nullBranch(out: JsonSchema) {
  const branches = out.anyOf as JsonSchema[];
  const real = branches.filter((b) => !(b.nullable === true && b.type === undefined && Object.keys(b).length === 1));
  if (real.length !== branches.length) out.nullable = true;
  if (real.length === 1) {
    delete out.anyOf;
    for (const [k, v] of Object.entries(real[0])) if (!(k in out) || k === 'type') out[k] = v;
  } else if (real.length === 0) delete out.anyOf;
  else out.anyOf = real;
}

/** `allOf` merged into one schema: properties and required joined, the first description and type kept. */
function mergeAllOf(s: JsonSchema, scope: RefScope): JsonSchema {
  const { allOf, ...rest } = s;
  const out: JsonSchema = { ...rest };
  const resolved = (allOf as unknown[])
    .filter(isObject)
    .map((p) =>
      typeof p.$ref === 'string' && isObject(scope.defs.get(p.$ref)) ? (scope.defs.get(p.$ref) as JsonSchema) : p,
    );
  for (const part of resolved) {
    for (const [k, v] of Object.entries(part)) {
      if (k === 'properties' && isObject(v))
        out.properties = { ...(isObject(out.properties) ? out.properties : {}), ...v };
      else if (k === 'required' && Array.isArray(v))
        out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...v])];
      else if (!(k in out)) out[k] = v;
    }
  }
  return out;
}

/** Whether a tool's parameters declare nothing (Gemini refuses `parameters` of an object with no properties). */
export function declaresNoParameters(s: JsonSchema): boolean {
  return (s.type === 'object' || s.type === undefined) && !s.properties && !s.anyOf && !s.items;
}
