import { z } from 'zod';

/*
 * Virtual model names that fan out to ordered real models (option `ModelMapping`).
 * The same rules run in the settings screen and on the server, with the spec's messages.
 */

export const MAPPING_MESSAGES = {
  virtualRequired: '虚拟模型名称不能为空',
  virtualDuplicate: '虚拟模型名称已存在',
  realRequired: '真实模型名称不能为空',
  realDuplicate: '真实模型名称重复',
  atLeastOne: '至少需要一个真实模型',
  priority: '优先级必须是不小于 0 的整数',
} as const;

/** One real model of a virtual name: `{model, priorities}` on the wire (admin spec, model mapping). */
export const mappingTarget = z.object({
  model: z.string({ message: MAPPING_MESSAGES.realRequired }),
  priorities: z
    .number({ message: MAPPING_MESSAGES.priority })
    .int(MAPPING_MESSAGES.priority)
    .min(0, MAPPING_MESSAGES.priority),
});
export type MappingTarget = z.infer<typeof mappingTarget>;

/** Stored and answered shape: virtual name → real models. */
export type ModelMapping = Record<string, MappingTarget[]>;

/** An editable row; a list (not an object) so the screen can hold two rows with the same name and say so. */
export interface MappingRow {
  name: string;
  models: MappingTarget[];
}

/** `priority` (singular) is read too: values this gateway stored before it answered with the spec's name. */
const targetInput = z.preprocess(
  (v) => {
    if (v && typeof v === 'object' && !('priorities' in v) && 'priority' in v) {
      const { priority, ...rest } = v as Record<string, unknown>;
      return { ...rest, priorities: priority };
    }
    return v;
  },
  z.object({
    model: z.string({ message: MAPPING_MESSAGES.realRequired }),
    // Integer and range are checked by checkMappingRows, which names the rule the admin broke.
    priorities: z.number({ message: MAPPING_MESSAGES.priority }).default(0),
  }),
);

/** Validates rows; returns the first spec message or the normalised mapping (names trimmed). */
export function checkMappingRows(
  rows: MappingRow[],
): { ok: true; mapping: ModelMapping } | { ok: false; message: string } {
  const mapping: ModelMapping = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '') return { ok: false, message: MAPPING_MESSAGES.virtualRequired };
    if (Object.hasOwn(mapping, name)) return { ok: false, message: MAPPING_MESSAGES.virtualDuplicate };
    if (row.models.length === 0) return { ok: false, message: MAPPING_MESSAGES.atLeastOne };
    const seen = new Set<string>();
    const targets: MappingTarget[] = [];
    for (const t of row.models) {
      const model = t.model.trim();
      if (model === '') return { ok: false, message: MAPPING_MESSAGES.realRequired };
      if (seen.has(model)) return { ok: false, message: MAPPING_MESSAGES.realDuplicate };
      if (!Number.isInteger(t.priorities) || t.priorities < 0) return { ok: false, message: MAPPING_MESSAGES.priority };
      seen.add(model);
      targets.push({ model, priorities: t.priorities });
    }
    mapping[name] = targets;
  }
  return { ok: true, mapping };
}

const rowsInput = z.array(
  z.object({ name: z.string({ message: MAPPING_MESSAGES.virtualRequired }), models: z.array(targetInput) }),
);
const recordInput = z.record(z.string(), z.array(targetInput, { message: MAPPING_MESSAGES.atLeastOne }));

/** Body of PUT /api/model_mapping/: `{mapping}` as an object (what GET answers) or as a list of rows. */
export const modelMappingInput = z.object({
  mapping: z.union([recordInput, rowsInput], { message: '映射格式错误' }),
});
export type ModelMappingInput = z.infer<typeof modelMappingInput>;

export const toMappingRows = (m: ModelMappingInput['mapping']): MappingRow[] =>
  Array.isArray(m) ? m : Object.entries(m).map(([name, models]) => ({ name, models }));

/** The option's stored JSON must satisfy the same rules. */
export const modelMappingOption = recordInput.superRefine((m, ctx) => {
  const r = checkMappingRows(toMappingRows(m));
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
});
