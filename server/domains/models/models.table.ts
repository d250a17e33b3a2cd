import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `vendors`, `models`, `prefill_groups` (joined into `Database` by server/db/types.ts). */

/** A model's maker as the marketplace shows it (migration 2026-11-27T0500). */
export interface VendorsTable {
  id: Id;
  name: string;
  description: Defaulted<string>;
  icon: Defaulted<string>;
  status: Defaulted<number>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}

/** What the marketplace says about a model (or every model a name rule matches). */
export interface ModelsTable {
  id: Id;
  model_name: string;
  description: Defaulted<string>;
  icon: Defaulted<string>;
  /** Comma-separated. */
  tags: Defaulted<string>;
  /** 0: none. */
  vendor_id: Defaulted<number>;
  /** JSON text (endpoint types, or type -> {path, method}); '' when not set. */
  endpoints: Defaulted<string>;
  /** 0 exact, 1 prefix, 2 contains, 3 suffix (new-api's NameRule). */
  name_rule: Defaulted<number>;
  status: Defaulted<number>;
  sync_official: Defaulted<number>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}

/** A named list of models, tags or endpoints the admin forms fill in with one click. */
export interface PrefillGroupsTable {
  id: Id;
  name: string;
  type: string;
  /** JSON text: an array of names, or (endpoint groups) whatever JSON the console sent. */
  items: Defaulted<string>;
  description: Defaulted<string>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}
