import { type ModelMetaInput, NAME_RULES } from '../../../shared/schemas/model-meta.ts';
import type { ChangeBus } from '../../cache/bus.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { ModelCatalogService } from './model-catalog.service.ts';
import {
  countModelsByVendor,
  deleteModelMeta,
  findModelMeta,
  insertModelMeta,
  listModelMeta,
  type ModelMetaFilter,
  modelNameTaken,
  updateModelMeta,
} from './model-meta.repo.ts';
import { ICON_MAX, MODEL_NAME_MAX, normalizeEndpoints, normalizeTags } from './model-meta.rules.ts';
import { type ModelMetaView, modelMetaView } from './model-meta.view.ts';
import { findVendor } from './vendors.repo.ts';

/*
 * Model metadata: what the marketplace (the pricing page) says about a model or, with a name rule,
 * about every served model whose name starts with, ends with or contains the row's name. It never
 * changes routing or billing. A disabled row hides the models it describes from the pricing page.
 */

export interface ModelMetaPage {
  items: ModelMetaView[];
  total: number;
  /** Rows per vendor id over all rows ("0": no vendor), for the console's vendor tabs. */
  vendor_counts: Record<string, number>;
}

export type ModelMetaService = ReturnType<typeof createModelMetaService>;

export function createModelMetaService(db: Db, bus: ChangeBus, catalog: ModelCatalogService) {
  const changed = () => bus.publish('models');

  async function fields(input: ModelMetaInput) {
    const model_name = (input.model_name ?? '').trim();
    if (!model_name) throw badRequest('model_meta.name_required');
    if (model_name.length > MODEL_NAME_MAX) throw badRequest('model_meta.name_too_long');
    const name_rule = input.name_rule ?? NAME_RULES.exact;
    if (!Object.values(NAME_RULES).includes(name_rule as 0)) throw badRequest('model_meta.name_rule_invalid');
    const icon = (input.icon ?? '').trim();
    if (icon.length > ICON_MAX) throw badRequest('model_meta.icon_too_long');
    const vendor_id = input.vendor_id && input.vendor_id > 0 ? input.vendor_id : 0;
    if (vendor_id && !(await findVendor(db, vendor_id))) throw badRequest('vendor.not_found');
    return {
      model_name,
      name_rule,
      icon,
      vendor_id,
      description: input.description ?? '',
      tags: normalizeTags(input.tags),
      endpoints: normalizeEndpoints(input.endpoints),
      status: input.status ?? 1,
      sync_official: input.sync_official ?? 1,
    };
  }

  async function get(id: number): Promise<ModelMetaView> {
    const row = await findModelMeta(db, id);
    if (!row) throw notFound('model_meta.not_found');
    return (await catalog.enrich([modelMetaView(row)]))[0];
  }

  /** Runs a write that may collide with another row's name (two admins racing). */
  async function saving(run: () => Promise<number>): Promise<ModelMetaView> {
    let id: number;
    try {
      id = await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest('model_meta.name_taken');
      throw err;
    }
    changed();
    return get(id);
  }

  return {
    get,

    async list(filter: ModelMetaFilter, offset: number, limit: number): Promise<ModelMetaPage> {
      const [{ items, total }, counts] = await Promise.all([
        listModelMeta(db, { keyword: filter.keyword.trim(), vendor: filter.vendor.trim() }, offset, limit),
        countModelsByVendor(db),
      ]);
      return {
        items: await catalog.enrich(items.map(modelMetaView)),
        total,
        vendor_counts: Object.fromEntries([...counts].map(([id, n]) => [String(id), n])),
      };
    },

    async create(input: ModelMetaInput): Promise<ModelMetaView> {
      const f = await fields(input);
      if (await modelNameTaken(db, f.model_name)) throw badRequest('model_meta.name_taken');
      const now = nowSeconds();
      return saving(() => insertModelMeta(db, { ...f, created_time: now, updated_time: now }));
    },

    /** A full edit (new-api writes every field, empty ones included). */
    async update(input: ModelMetaInput): Promise<ModelMetaView> {
      if (!input.id) throw badRequest('model_meta.id_missing');
      const id = input.id;
      const f = await fields(input);
      if (await modelNameTaken(db, f.model_name, id)) throw badRequest('model_meta.name_taken');
      return saving(async () => {
        if (!(await updateModelMeta(db, id, { ...f, updated_time: nowSeconds() })))
          throw notFound('model_meta.not_found');
        return id;
      });
    },

    /** Enable (1) or disable (0) a row without touching its other fields. */
    async setStatus(id: number | undefined, status: number): Promise<ModelMetaView> {
      if (!id) throw badRequest('model_meta.id_missing');
      return saving(async () => {
        if (!(await updateModelMeta(db, id, { status, updated_time: nowSeconds() })))
          throw notFound('model_meta.not_found');
        return id;
      });
    },

    async remove(id: number): Promise<void> {
      if (!(await deleteModelMeta(db, id))) throw notFound('model_meta.not_found');
      changed();
    },

    /**
     * One click for missing models: an exact-name row for each of `names` that is still missing
     * (all missing models when none are given). Answers the names created.
     */
    async createMissing(names?: string[]): Promise<string[]> {
      const missing = await catalog.missing();
      const wanted = names ? missing.filter((m) => names.includes(m)) : missing;
      const now = nowSeconds();
      const created: string[] = [];
      for (const model_name of wanted) {
        try {
          await insertModelMeta(db, { model_name, created_time: now, updated_time: now });
          created.push(model_name);
        } catch (err) {
          // Another admin created it in the meantime: it is no longer missing either way.
          if (!isUniqueViolation(err)) throw err;
        }
      }
      if (created.length) changed();
      return created;
    },
  };
}
