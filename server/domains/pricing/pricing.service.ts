import type { ChangeBus } from '../../cache/bus.ts';
import type { Db } from '../../db/types.ts';
import { mayUseGroup } from '../options/options.rules.ts';
import type { OptionsService } from '../options/options.service.ts';
import { listEnabledModelGroups } from './pricing.repo.ts';

/** One model on the pricing page (api-contract §1 Pricing item). */
export interface PricingItem {
  model_name: string;
  /** 0: billed per token by ratios; 1: a fixed price per call. */
  quota_type: 0 | 1;
  model_ratio: number;
  model_price: number;
  owner_by: string;
  completion_ratio: number;
  /** Groups whose enabled channels offer the model; left out when empty, as new-api does. */
  enable_groups?: string[];
}

export interface PricingAnswer {
  data: PricingItem[];
  /** Ratios of the groups the caller may use only. */
  group_ratio: Record<string, number>;
  /** Group name to description, for the group selector. */
  usable_group: Record<string, string>;
}

/**
 * What a request for the model is billed (relay.md §5): a fixed ModelPrice wins over
 * ratios; a model with neither shows the fallback pricing when that is on, else ratio 0.
 */
function priceOf(
  opt: OptionsService['get'],
  model: string,
): Pick<PricingItem, 'quota_type' | 'model_ratio' | 'model_price' | 'completion_ratio'> {
  const fixed = opt('ModelPrice')[model];
  if (fixed !== undefined) return { quota_type: 1, model_ratio: 0, model_price: fixed, completion_ratio: 0 };
  const ratio = opt('ModelRatio')[model];
  if (ratio !== undefined)
    return { quota_type: 0, model_ratio: ratio, model_price: 0, completion_ratio: opt('CompletionRatio')[model] ?? 1 };
  if (opt('fallback_pricing_enabled')) {
    const single = opt('fallback_single_price');
    if (single > 0) return { quota_type: 1, model_ratio: 0, model_price: single, completion_ratio: 0 };
    return {
      quota_type: 0,
      model_ratio: opt('fallback_input_ratio'),
      model_price: 0,
      completion_ratio: opt('fallback_completion_ratio'),
    };
  }
  return { quota_type: 0, model_ratio: 0, model_price: 0, completion_ratio: 1 };
}

export type PricingService = ReturnType<typeof createPricingService>;

/** new-api caches pricing for a minute; any option or channel change drops it sooner. */
const CACHE_TTL_MS = 60_000;
/** Description of a user's own group when the site does not list it as usable (new-api's text). */
const OWN_GROUP_DESC = '用户分组';

export function createPricingService(db: Db, bus: ChangeBus, options: OptionsService) {
  let cached: { at: number; items: Promise<PricingItem[]> } | undefined;
  const invalidate = () => {
    cached = undefined;
  };
  // options.onChange fires after the new values are in memory (bus listeners may run before a reload ends).
  options.onChange(invalidate);
  bus.subscribe('channels', invalidate);

  async function build(): Promise<PricingItem[]> {
    const groupsOf = new Map<string, string[]>();
    for (const { model, group } of await listEnabledModelGroups(db)) {
      const list = groupsOf.get(model) ?? [];
      list.push(group);
      groupsOf.set(model, list);
    }
    return [...groupsOf.entries()].map(([model, groups]) => {
      const item: PricingItem = { model_name: model, owner_by: '', ...priceOf(options.get, model) };
      if (groups.length > 0) item.enable_groups = groups;
      return item;
    });
  }

  function items(): Promise<PricingItem[]> {
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

    async list(ownGroup: string | undefined): Promise<PricingAnswer> {
      const listed = options.get('UserUsableGroups');
      const group_ratio: Record<string, number> = {};
      for (const [group, ratio] of Object.entries(options.get('GroupRatio')))
        if (mayUseGroup(listed, ownGroup, group)) group_ratio[group] = ratio;
      return { data: await items(), group_ratio, usable_group: usableGroups(ownGroup) };
    },
  };
}
