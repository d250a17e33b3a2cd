import type { OptionReader } from '../../../shared/options.ts';
import { NAME_RULES } from '../../../shared/schemas/model-meta.ts';
import type { ChangeBus } from '../../cache/bus.ts';
import type { Db } from '../../db/types.ts';
import { modelPricing } from '../pricing/pricing.rules.ts';
import { describedNames, listAllModelMeta, listServedModels, type ModelMetaRow } from './model-meta.repo.ts';
import { matchedModels, metaIndex } from './model-meta.rules.ts';
import { type BoundChannel, type ModelMetaView, type PricingVendor, pricingVendor } from './model-meta.view.ts';
import { listAllVendors } from './vendors.repo.ts';

/*
 * The marketplace seen from the served models: what the pricing page adds to each model (its
 * metadata row, by name rule, and the vendors), which served models have no row yet (missing
 * models), and what the admin list says about the channels behind each row. The catalog is read
 * once and kept until a metadata write anywhere publishes `models` on the bus.
 */

export interface Catalog {
  /** The row describing a model, if any (exact name first, then rules). */
  describe: (model: string) => ModelMetaRow | undefined;
  vendors: PricingVendor[];
}

export type ModelCatalogService = ReturnType<typeof createModelCatalogService>;

export function createModelCatalogService(db: Db, bus: ChangeBus, options: OptionReader) {
  let cached: Promise<Catalog> | undefined;
  bus.subscribe('models', () => {
    cached = undefined;
  });

  async function load(): Promise<Catalog> {
    const [rows, vendors] = await Promise.all([listAllModelMeta(db), listAllVendors(db)]);
    return { describe: metaIndex(rows.map((r) => ({ ...r, id: Number(r.id) }))), vendors: vendors.map(pricingVendor) };
  }

  /** Served models: model -> enabled channels (name, type) and groups. */
  async function served() {
    const byModel = new Map<string, { channels: Map<string, BoundChannel>; groups: Set<string> }>();
    for (const r of await listServedModels(db)) {
      const entry = byModel.get(r.model) ?? { channels: new Map(), groups: new Set() };
      entry.channels.set(`${r.channelName}\u0000${r.channelType}`, { name: r.channelName, type: r.channelType });
      entry.groups.add(r.group);
      byModel.set(r.model, entry);
    }
    return byModel;
  }

  return {
    catalog(): Promise<Catalog> {
      if (!cached) {
        const entry = load();
        entry.catch(() => {
          if (cached === entry) cached = undefined;
        });
        cached = entry;
      }
      return cached;
    },

    /** Served models without a metadata row of their own name (new-api's rule: exact names only). */
    async missing(): Promise<string[]> {
      const names = [...(await served()).keys()];
      const described = await describedNames(db, names);
      return names.filter((n) => !described.has(n)).sort();
    },

    /**
     * The admin list's extras: channels and groups behind each row (for a rule row, behind every
     * served model it matches), and how those models are billed.
     */
    async enrich(views: ModelMetaView[]): Promise<ModelMetaView[]> {
      const byModel = await served();
      const names = [...byModel.keys()];
      return views.map((v) => {
        const models = v.name_rule === NAME_RULES.exact ? [v.model_name] : matchedModels(v, names);
        const channels = new Map<string, BoundChannel>();
        const groups = new Set<string>();
        for (const m of models) {
          const s = byModel.get(m);
          s?.channels.forEach((c, k) => channels.set(k, c));
          s?.groups.forEach((g) => groups.add(g));
        }
        const quotaTypes = [
          ...new Set(models.filter((m) => byModel.has(m)).map((m) => modelPricing(options, m).quota_type)),
        ].sort();
        return {
          ...v,
          ...(channels.size ? { bound_channels: [...channels.values()] } : {}),
          ...(groups.size ? { enable_groups: [...groups].sort() } : {}),
          ...(quotaTypes.length ? { quota_types: quotaTypes } : {}),
          ...(v.name_rule === NAME_RULES.exact ? {} : { matched_models: models, matched_count: models.length }),
        };
      });
    },
  };
}
