import type { ChangeBus } from '../../cache/bus.ts';
import type { Db } from '../../db/types.ts';
import type { ModelCatalogService } from '../models/model-catalog.service.ts';
import { defaultEndpointTypes, endpointTypesOf, SUPPORTED_ENDPOINTS } from '../models/model-meta.rules.ts';
import type { PricingVendor } from '../models/model-meta.view.ts';
import { mayUseGroup } from '../options/options.rules.ts';
import type { OptionsService } from '../options/options.service.ts';
import { clearPresetPrices, presetPrices } from './presets.service.ts';
import { VIDEO_CHANNEL_TYPES } from '../../../shared/channel-types.ts';
import { isVideoModel } from '../../../shared/video-models.ts';
import {
  findUserSetting,
  listEnabledModelChannels,
  listEnabledModelGroups,
  listEnabledModelsOfTypes,
} from './pricing.repo.ts';
import {
  hasOwnPrice,
  type ModelPricing,
  modelPricing,
  type UnpricedOutcome,
  unpricedOutcome,
  videoModelPricing,
} from './pricing.rules.ts';

/** One model on the pricing page (api-contract §1 Pricing item, plus what the relay really does with it). */
export interface PricingItem extends ModelPricing {
  model_name: string;
  owner_by: string;
  /**
   * A call is billed, not refused: false for a model without a price in selling mode (the relay
   * answers 403 "no ratio or price is set"), unless the caller accepts models without a price.
   */
  callable: boolean;
  /** Groups whose enabled channels offer the model; left out when empty, as new-api does. */
  enable_groups?: string[];
  /** The marketplace's metadata (models/vendors tables), each left out when not set, as new-api does. */
  description?: string;
  icon?: string;
  /** Comma-separated. */
  tags?: string;
  vendor_id?: number;
  /** The API doors the model is called through (keys of the answer's `supported_endpoint`). */
  supported_endpoint_types: string[];
}

export interface PricingAnswer {
  data: PricingItem[];
  /** Ratios of the groups the caller may use only. */
  group_ratio: Record<string, number>;
  /** Group name to description, for the group selector. */
  usable_group: Record<string, string>;
  /** Vendors the items' `vendor_id` refers to (new-api 2026). */
  vendors: PricingVendor[];
  /** Endpoint type -> the door's path and method. */
  supported_endpoint: Record<string, { path: string; method: string }>;
  /** new-api's "auto" group chain; Switchyard has none. */
  auto_groups: string[];
}

/** Models some enabled channel serves that have neither a ModelPrice nor a ModelRatio. */
export interface UnpricedAnswer {
  /** What calls to them get now; null when there are none. */
  outcome: UnpricedOutcome | null;
  models: { model: string; channels: { id: number; name: string }[] }[];
}

export type PricingService = ReturnType<typeof createPricingService>;

/** new-api caches pricing for a minute; any option or channel change drops it sooner. */
const CACHE_TTL_MS = 60_000;
/** Description of a user's own group when the site does not list it as usable (new-api's text). */
const OWN_GROUP_DESC = '用户分组';

/** The user's "accept models without a price" setting (accept_unset_model_ratio_model), as the relay reads it. */
function acceptsUnset(setting: string | null | undefined): boolean {
  try {
    const v: unknown = setting ? JSON.parse(setting) : {};
    return !!v && typeof v === 'object' && (v as Record<string, unknown>).accept_unset_model_ratio_model === true;
  } catch {
    return false;
  }
}

export function createPricingService(db: Db, bus: ChangeBus, options: OptionsService, models: ModelCatalogService) {
  let cached: { at: number; items: Promise<{ items: PricingItem[]; vendors: PricingVendor[] }> } | undefined;
  const invalidate = () => {
    cached = undefined;
  };
  // options.onChange fires after the new values are in memory (bus listeners may run before a reload ends).
  options.onChange(invalidate);
  bus.subscribe('channels', invalidate);
  bus.subscribe('models', invalidate);

  /** Priced items with their metadata; a model whose metadata row is disabled is not listed. */
  async function build(): Promise<{ items: PricingItem[]; vendors: PricingVendor[] }> {
    const catalog = await models.catalog();
    const video = await videoModelSet();
    const units = options.get('VideoPriceUnit');
    const groupsOf = new Map<string, string[]>();
    for (const { model, group } of await listEnabledModelGroups(db)) {
      const list = groupsOf.get(model) ?? [];
      list.push(group);
      groupsOf.set(model, list);
    }
    const items = [...groupsOf.entries()].flatMap(([model, groups]) => {
      const meta = catalog.describe(model);
      if (meta && meta.status !== 1) return [];
      const isVideo = isVideoModel(model, video, units);
      const pricing = isVideo ? videoModelPricing(options.get, model) : modelPricing(options.get, model);
      const declared = meta ? endpointTypesOf(meta.endpoints) : [];
      const item: PricingItem = {
        model_name: model,
        owner_by: '',
        ...pricing,
        callable: pricing.price_source !== 'unset',
        ...(meta?.description ? { description: meta.description } : {}),
        ...(meta?.icon ? { icon: meta.icon } : {}),
        ...(meta?.tags ? { tags: meta.tags } : {}),
        ...(meta && Number(meta.vendor_id) > 0 ? { vendor_id: Number(meta.vendor_id) } : {}),
        supported_endpoint_types: declared.length ? declared : isVideo ? ['openai-video'] : defaultEndpointTypes(model),
      };
      if (groups.length > 0) item.enable_groups = groups;
      return [item];
    });
    return { items, vendors: catalog.vendors };
  }

  /** Models a video-only channel type serves (issue 40). */
  const videoModelSet = async () => new Set(await listEnabledModelsOfTypes(db, VIDEO_CHANNEL_TYPES));

  function items(): Promise<{ items: PricingItem[]; vendors: PricingVendor[] }> {
    if (!cached || Date.now() - cached.at > CACHE_TTL_MS) {
      const entry = { at: Date.now(), items: build() };
      // A failed build must not stay cached.
      entry.items.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
    }
    return cached.items;
  }

  /** UserUsableGroups plus the caller's own group; a visitor gets the site-wide list. */
  function usableGroups(ownGroup: string | undefined): Record<string, string> {
    const usable = { ...options.get('UserUsableGroups') };
    if (ownGroup && !Object.hasOwn(usable, ownGroup)) usable[ownGroup] = OWN_GROUP_DESC;
    return usable;
  }

  return {
    invalidate,

    /** The shipped preset prices still in effect (presets.service.ts). */
    presets: () => presetPrices(options),
    /** Clears the shipped preset prices the operator never changed. */
    clearPresets: () => clearPresetPrices(options),

    /** The pricing page; a signed-in caller who accepts models without a price may call them (free). */
    async list(user?: { id: number; group: string }): Promise<PricingAnswer> {
      const ownGroup = user?.group;
      const listed = options.get('UserUsableGroups');
      const group_ratio: Record<string, number> = {};
      for (const [group, ratio] of Object.entries(options.get('GroupRatio')))
        if (mayUseGroup(listed, ownGroup, group)) group_ratio[group] = ratio;
      const built = await items();
      let data = built.items;
      // A video model without a ModelPrice stays refused: the video relay has no "accept unset" path.
      const freeable = (i: PricingItem) => !i.callable && i.unit !== 'second' && i.unit !== 'video';
      if (user && data.some(freeable) && acceptsUnset(await findUserSetting(db, user.id)))
        data = data.map((i) => (freeable(i) ? { ...i, callable: true } : i));
      return {
        data,
        group_ratio,
        usable_group: usableGroups(ownGroup),
        vendors: built.vendors,
        supported_endpoint: SUPPORTED_ENDPOINTS,
        auto_groups: [],
      };
    },

    /**
     * The video models enabled channels serve (a video-only type's models, or a video model's name on
     * any type), for the price editor's "per second / per video" control; it adds VideoPriceUnit's own.
     */
    async videoModels(): Promise<string[]> {
      const served = await videoModelSet();
      const all = new Set((await listEnabledModelGroups(db)).map((r) => r.model));
      return [...all].filter((m) => isVideoModel(m, served, {})).sort();
    },

    /**
     * Models without a price of their own (no ModelPrice, no ModelRatio), from the options in
     * memory: among `models` when given (a channel form's list before it is saved), else among the
     * models enabled channels serve; each with the enabled channels that serve it.
     */
    async unpriced(models?: string[]): Promise<UnpricedAnswer> {
      const channelsOf = new Map<string, { id: number; name: string }[]>();
      for (const row of await listEnabledModelChannels(db)) {
        const list = channelsOf.get(row.model) ?? [];
        list.push({ id: Number(row.channelId), name: row.channelName });
        channelsOf.set(row.model, list);
      }
      const names = models ? [...new Set(models.map((m) => m.trim()).filter(Boolean))] : [...channelsOf.keys()];
      const out = names
        .filter((m) => !hasOwnPrice(options.get, m))
        .sort()
        .map((model) => ({ model, channels: channelsOf.get(model) ?? [] }));
      return { outcome: out.length ? unpricedOutcome(options.get, out[0].model) : null, models: out };
    },
  };
}
