import { type z, ZodError } from 'zod';

/*
 * new-api's handlers read their input the Go way, and its console, scripts and browser
 * extensions are written against that (issue #21, api-contract §0):
 *
 * - a JSON body goes through `json.Unmarshal` into a struct: a `null` or absent field keeps
 *   the field's zero value ("", 0, false, empty list), unknown fields are ignored, a body
 *   that is not an object does not decode ("无效的参数"), and a wrong JSON type is an error
 *   (a number where a string is expected, a string where a number is, unless the schema
 *   takes numbers as text: ours do that for most numbers, and that is left to the schema);
 * - a query value goes through `c.Query` (the first of repeated keys) and `strconv.Atoi`
 *   with its error ignored: `NaN`, `abc`, `1.5` or `` read as 0, which every list and
 *   filter treats as "not given".
 *
 * This module applies exactly those rules to the raw input, guided by the route's own zod
 * schema, before the schema parses it. The schema stays the contract: services get the
 * same validated, typed input as before, and whatever Go refuses is still refused.
 */

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';

interface Shape {
  kinds: Set<Kind>;
  /** Field schemas of an object (the first object of a union). */
  fields?: Record<string, z.ZodType>;
  /** Element schema of an array. */
  element?: z.ZodType;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

const kindOfValue = (v: unknown): Kind | undefined => {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  return undefined;
};

/** The JSON types a schema takes as input, looking through wrappers, preprocessing and pipes. */
function shapeOf(schema: z.ZodType, out: Shape = { kinds: new Set() }, depth = 0): Shape {
  if (depth > 20) return out;
  const def = defOf(schema);
  const next = (s: z.ZodType | undefined) => (s ? shapeOf(s, out, depth + 1) : out);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return next(def.innerType);
    case 'lazy':
      return next(def.getter?.());
    case 'pipe':
      // z.preprocess(fn, s) is a pipe from a transform: the input is what `s` takes.
      return next(def.in && defOf(def.in).type === 'transform' ? def.out : def.in);
    case 'union':
      for (const o of def.options ?? []) shapeOf(o, out, depth + 1);
      return out;
    case 'string':
    case 'number':
    case 'boolean':
      out.kinds.add(def.type);
      return out;
    case 'int':
    case 'bigint':
      out.kinds.add('number');
      return out;
    case 'enum':
      for (const v of Object.values(def.entries ?? {})) addKind(out, kindOfValue(v));
      return out;
    case 'literal':
      for (const v of def.values ?? []) addKind(out, kindOfValue(v));
      return out;
    case 'array':
      out.kinds.add('array');
      out.element ??= def.element;
      return out;
    case 'object':
      out.kinds.add('object');
      out.fields ??= def.shape;
      return out;
    case 'record':
      out.kinds.add('object');
      return out;
    default:
      // transform, unknown, any, custom...: nothing to say about the input.
      return out;
  }
}

function addKind(s: Shape, k: Kind | undefined) {
  if (k) s.kinds.add(k);
}

/** Go's zero value for a field of this schema; undefined when the schema's type is not known. */
function zeroOf(shape: Shape): unknown {
  // One Go type per field: a number field the schema also takes as text is still an int in Go.
  if (shape.kinds.has('number')) return 0;
  if (shape.kinds.has('string')) return '';
  if (shape.kinds.has('boolean')) return false;
  if (shape.kinds.has('array')) return [];
  if (shape.kinds.has('object')) return shape.fields ? decodeFields(shape.fields, {}) : {};
  return undefined;
}

const accepts = (schema: z.ZodType, value: unknown) => {
  try {
    return schema.safeParse(value).success;
  } catch {
    return false;
  }
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One JSON value the way `json.Unmarshal` fills a Go field: null or absent gives the zero
 * value, unless the schema gives null or absence a meaning of its own (a nullable field,
 * an optional one, a default): then it is left to the schema. Objects and arrays are
 * decoded field by field, element by element.
 */
function decodeValue(schema: z.ZodType, value: unknown): unknown {
  if (value === null) {
    if (accepts(schema, null)) return null;
    if (accepts(schema, undefined)) return undefined;
    return zeroOf(shapeOf(schema));
  }
  if (value === undefined) return accepts(schema, undefined) ? undefined : zeroOf(shapeOf(schema));
  const shape = shapeOf(schema);
  if (shape.fields && isPlainObject(value)) return decodeFields(shape.fields, value);
  if (shape.element && Array.isArray(value)) {
    const element = shape.element;
    return value.map((v) => (v === undefined ? v : decodeValue(element, v)));
  }
  return value;
}

function decodeFields(fields: Record<string, z.ZodType>, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [key, field] of Object.entries(fields)) {
    const v = decodeValue(field, Object.hasOwn(raw, key) ? raw[key] : undefined);
    if (v === undefined) delete out[key];
    else out[key] = v;
  }
  return out;
}

/** Bodies that do not decode (not a JSON object, a field of a type Go refuses), told apart from refused values. */
const decodeFailures = new WeakSet<object>();
export const isDecodeFailure = (err: unknown) => typeof err === 'object' && err !== null && decodeFailures.has(err);
const markDecodeFailure = (err: unknown) => {
  if (typeof err === 'object' && err !== null) decodeFailures.add(err);
  return err;
};

/** What new-api's handlers answer when the body does not decode into their struct. */
const NOT_AN_OBJECT = '无效的参数';

/**
 * A JSON body read as new-api's Go handler reads it, then parsed by the route's schema.
 * A missing body is an empty object; a body that is not an object (array, string, number)
 * is refused as new-api refuses it, "无效的参数".
 */
export function decodeBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  let value: unknown = raw ?? {};
  // A body-level z.preprocess (e.g. newer consoles' `{mode, channel}` wrapper) runs first, so
  // the fields are decoded in the shape the schema reads them in.
  let target: z.ZodType = schema;
  for (let def = defOf(target); def.type === 'pipe' && def.in && def.out && defOf(def.in).type === 'transform';) {
    value = def.in.parse(value);
    target = def.out;
    def = defOf(target);
  }
  const shape = shapeOf(target);
  if (shape.fields) {
    if (!isPlainObject(value))
      throw markDecodeFailure(new ZodError([{ code: 'custom', message: NOT_AN_OBJECT, path: [], input: value }]));
    value = decodeFields(shape.fields, value);
  }
  const r = target.safeParse(value);
  if (r.success) return r.data as T;
  // A field of the wrong JSON type fails Go's decoding before any check runs: that is the refusal.
  const wrongType = r.error.issues.filter((i) => i.code === 'invalid_type');
  throw wrongType.length > 0 ? markDecodeFailure(new ZodError(wrongType)) : r.error;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.Atoi: optional sign and decimal digits, within int64; nothing else (no spaces, dots or exponents). */
const atoiParses = (v: string) => /^[+-]?\d+$/.test(v) && BigInt(v) >= INT64_MIN && BigInt(v) <= INT64_MAX;

/**
 * A query string read as new-api's handlers read it: the first of repeated keys, and a
 * number that strconv.Atoi cannot read is "not given" (Go reads it as 0, which its lists
 * and filters treat as no filter, no page). Parsed by the route's schema afterwards.
 */
export function decodeQuery<T>(schema: z.ZodType<T>, raw: unknown): T {
  const query: Record<string, unknown> = isPlainObject(raw) ? { ...raw } : {};
  const fields = shapeOf(schema).fields ?? {};
  for (const [key, field] of Object.entries(fields)) {
    if (!Object.hasOwn(query, key)) continue;
    const shape = shapeOf(field);
    let v = query[key];
    if (Array.isArray(v) && !shape.kinds.has('array')) v = v[0];
    if (shape.kinds.has('number') && typeof v === 'string' && !atoiParses(v)) v = undefined;
    if (v === undefined) delete query[key];
    else query[key] = v;
  }
  return schema.parse(query);
}
