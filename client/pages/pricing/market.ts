/*
 * The pricing page's marketplace filters, as new-api's model square applies them: a search over the
 * name, description, tags and vendor name; a vendor (or "no vendor"); a tag (tags are comma lists,
 * compared without case).
 */

export const NO_VENDOR = 'none';

interface MarketItem {
  model_name: string;
  description?: string;
  tags?: string;
  vendor_id?: number;
}

export const tagsOf = (tags?: string): string[] =>
  (tags ?? '')
    .split(/[,;|]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Every tag of the listed models, once, in alphabetical order. */
export const allTags = (items: readonly MarketItem[]): string[] =>
  [...new Set(items.flatMap((i) => tagsOf(i.tags)))].sort((a, b) => a.localeCompare(b));

export interface MarketFilter {
  search: string;
  /** A vendor id as text, NO_VENDOR, or null for all. */
  vendor: string | null;
  tag: string | null;
}

export function matchesMarket(
  item: MarketItem,
  f: MarketFilter,
  vendors: ReadonlyMap<number, { name: string }>,
): boolean {
  const vendor = item.vendor_id ? vendors.get(item.vendor_id) : undefined;
  if (f.vendor === NO_VENDOR ? vendor : f.vendor !== null && String(item.vendor_id ?? '') !== f.vendor) return false;
  if (f.tag && !tagsOf(item.tags).some((x) => x.toLowerCase() === f.tag!.toLowerCase())) return false;
  const q = f.search.trim().toLowerCase();
  if (!q) return true;
  return [item.model_name, item.description, item.tags, vendor?.name].some((s) => s?.toLowerCase().includes(q));
}
