import { z } from 'zod';
import { serverText } from '../server-messages.ts';

/*
 * Inputs of the model marketplace's admin screens (model metadata, vendors, prefill groups),
 * shared by the REST adapter (new-api's consoles send these bodies), tRPC and Switchyard's console.
 * Bodies are read leniently the way new-api's Go structs read them (numbers as numbers or numeric
 * text, unknown fields ignored); the rules (required, unique, lengths) live in the services so both
 * surfaces answer with the same sentences.
 */

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
/** An optional integer; null and absent mean "not sent" (Go refuses "" for a number, and so do we). */
const optInt = () =>
  z.preprocess(
    (v) => (v === null ? undefined : numeric(v)),
    z
      .number({ message: serverText('common.must_be_integer') })
      .int(serverText('common.must_be_integer'))
      .optional(),
  );
/** new-api stores 0/1; its consoles send 0/1, Switchyard's booleans. */
const optFlag = () =>
  z.preprocess(
    (v) => (v === true ? 1 : v === false ? 0 : v === null ? undefined : numeric(v)),
    z
      .number({ message: serverText('common.must_be_integer') })
      .int()
      .min(0)
      .max(1)
      .optional(),
  );
const optText = () =>
  z.preprocess(
    (v) => (v === null ? undefined : v),
    z.string({ message: serverText('common.must_be_string') }).optional(),
  );

/** Name match rules, by new-api's numbers: exact, prefix, contains, suffix. */
export const NAME_RULES = { exact: 0, prefix: 1, contains: 2, suffix: 3 } as const;
export type NameRule = (typeof NAME_RULES)[keyof typeof NAME_RULES];

export const PREFILL_TYPES = ['model', 'tag', 'endpoint'] as const;
export type PrefillType = (typeof PREFILL_TYPES)[number];

/** A model metadata row as created or fully edited (new-api's Model body; `id` on edit). */
export const modelMetaInput = z
  .object({
    id: optInt(),
    model_name: optText(),
    description: optText(),
    icon: optText(),
    /** Comma-separated text (new-api) or a list (Switchyard's console). */
    tags: z.preprocess((v) => (v === null ? undefined : v), z.union([z.string(), z.array(z.string())]).optional()),
    vendor_id: optInt(),
    /** JSON text, or the JSON itself. */
    endpoints: z.unknown().optional(),
    name_rule: optInt(),
    status: optFlag(),
    sync_official: optFlag(),
  })
  .loose();
export type ModelMetaInput = z.infer<typeof modelMetaInput>;

export const vendorInput = z
  .object({
    id: optInt(),
    name: optText(),
    description: optText(),
    icon: optText(),
    status: optFlag(),
  })
  .loose();
export type VendorInput = z.infer<typeof vendorInput>;

export const prefillGroupInput = z
  .object({
    id: optInt(),
    name: optText(),
    type: optText(),
    /** A list of names (model and tag groups); for endpoint groups whatever JSON the console sends. */
    items: z.unknown().optional(),
    description: optText(),
  })
  .loose();
export type PrefillGroupInput = z.infer<typeof prefillGroupInput>;

/** The admin list of Switchyard's console (tRPC). */
export const listModelMetaInput = z
  .object({
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
    keyword: z.string().trim().max(200).default(''),
    vendorId: z.number().int().min(0).optional(),
  })
  .default({ page: 1, pageSize: 20, keyword: '' });
