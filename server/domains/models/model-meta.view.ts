import type { ModelMetaRow } from './model-meta.repo.ts';
import type { VendorRow } from './vendors.repo.ts';

/*
 * Answer shapes of the marketplace's admin calls, as new-api's JSON tags write them: description,
 * icon, tags, vendor_id and endpoints are left out when empty (`omitempty`), the rest always present.
 */

export interface BoundChannel {
  name: string;
  type: number;
}

/** A model metadata row as new-api's Model answers it, plus what the list adds about served models. */
export interface ModelMetaView {
  id: number;
  model_name: string;
  description?: string;
  icon?: string;
  tags?: string;
  vendor_id?: number;
  endpoints?: string;
  status: number;
  sync_official: number;
  created_time: number;
  updated_time: number;
  name_rule: number;
  /** Enabled channels serving the model (or, for a rule, the models it matches). */
  bound_channels?: BoundChannel[];
  enable_groups?: string[];
  /** 0: billed per token; 1: per call. */
  quota_types?: number[];
  /** Rule rows only: the served models the rule matches. */
  matched_models?: string[];
  matched_count?: number;
}

const nonEmpty = <K extends string>(key: K, v: string): Partial<Record<K, string>> =>
  (v ? { [key]: v } : {}) as Partial<Record<K, string>>;

export function modelMetaView(row: ModelMetaRow): ModelMetaView {
  return {
    id: Number(row.id),
    model_name: row.model_name,
    ...nonEmpty('description', row.description),
    ...nonEmpty('icon', row.icon),
    ...nonEmpty('tags', row.tags),
    ...(Number(row.vendor_id) > 0 ? { vendor_id: Number(row.vendor_id) } : {}),
    ...nonEmpty('endpoints', row.endpoints),
    status: row.status,
    sync_official: row.sync_official,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
    name_rule: row.name_rule,
  };
}

export interface VendorView {
  id: number;
  name: string;
  description?: string;
  icon?: string;
  status: number;
  created_time: number;
  updated_time: number;
  /** How many model rows name this vendor (lists only). */
  model_count: number;
}

export const vendorView = (row: VendorRow, modelCount = 0): VendorView => ({
  id: Number(row.id),
  name: row.name,
  ...nonEmpty('description', row.description),
  ...nonEmpty('icon', row.icon),
  status: row.status,
  created_time: Number(row.created_time),
  updated_time: Number(row.updated_time),
  model_count: modelCount,
});

/** A vendor as the pricing page's `vendors` list carries it. */
export interface PricingVendor {
  id: number;
  name: string;
  description?: string;
  icon?: string;
}

export const pricingVendor = (row: VendorRow): PricingVendor => ({
  id: Number(row.id),
  name: row.name,
  ...nonEmpty('description', row.description),
  ...nonEmpty('icon', row.icon),
});
