import type { VendorInput } from '../../../shared/schemas/model-meta.ts';
import type { ChangeBus } from '../../cache/bus.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, notFound } from '../../errors.ts';
import { countModelsByVendor, detachVendor } from './model-meta.repo.ts';
import { ICON_MAX } from './model-meta.rules.ts';
import { type VendorView, vendorView } from './model-meta.view.ts';
import { deleteVendor, findVendor, insertVendor, listVendors, updateVendor, vendorNameTaken } from './vendors.repo.ts';

/*
 * Vendors: a model's maker as the marketplace shows it (name, description, icon). Names are unique.
 * Deleting a vendor leaves its models without one (new-api leaves them pointing at a deleted row).
 */

const VENDOR_NAME_MAX = 128;

export type VendorsService = ReturnType<typeof createVendorsService>;

export function createVendorsService(db: Db, bus: ChangeBus) {
  const changed = () => bus.publish('models');

  function fields(input: VendorInput) {
    const name = (input.name ?? '').trim();
    if (!name) throw badRequest('vendor.name_required');
    if (name.length > VENDOR_NAME_MAX) throw badRequest('vendor.name_too_long');
    const icon = (input.icon ?? '').trim();
    if (icon.length > ICON_MAX) throw badRequest('model_meta.icon_too_long');
    return { name, description: input.description ?? '', icon, status: input.status ?? 1 };
  }

  async function save(run: () => Promise<number>): Promise<VendorView> {
    try {
      return await get(await run());
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest('vendor.name_taken');
      throw err;
    }
  }

  async function get(id: number): Promise<VendorView> {
    const row = await findVendor(db, id);
    if (!row) throw notFound('vendor.not_found');
    const counts = await countModelsByVendor(db);
    return vendorView(row, counts.get(id) ?? 0);
  }

  return {
    get,

    /** A page of vendors (newest first), each with its model count. */
    async list(keyword: string, offset: number, limit: number): Promise<{ items: VendorView[]; total: number }> {
      const [{ items, total }, counts] = await Promise.all([
        listVendors(db, keyword.trim(), offset, limit),
        countModelsByVendor(db),
      ]);
      return { items: items.map((v) => vendorView(v, counts.get(Number(v.id)) ?? 0)), total };
    },

    async create(input: VendorInput): Promise<VendorView> {
      const f = fields(input);
      if (await vendorNameTaken(db, f.name)) throw badRequest('vendor.name_taken');
      const now = nowSeconds();
      const view = await save(() => insertVendor(db, { ...f, created_time: now, updated_time: now }));
      changed();
      return view;
    },

    async update(input: VendorInput): Promise<VendorView> {
      if (!input.id) throw badRequest('vendor.id_missing');
      const id = input.id;
      const f = fields(input);
      if (await vendorNameTaken(db, f.name, id)) throw badRequest('vendor.name_taken');
      const view = await save(async () => {
        if (!(await updateVendor(db, id, { ...f, updated_time: nowSeconds() }))) throw notFound('vendor.not_found');
        return id;
      });
      changed();
      return view;
    },

    /** Deletes the vendor; its models stay, without a vendor. Answers how many were detached. */
    async remove(id: number): Promise<{ detached: number }> {
      const detached = await inTransaction(db, async (trx) => {
        const counts = await countModelsByVendor(trx);
        if (!(await deleteVendor(trx, id))) throw notFound('vendor.not_found');
        await detachVendor(trx, id);
        return counts.get(id) ?? 0;
      });
      changed();
      return { detached };
    },
  };
}
