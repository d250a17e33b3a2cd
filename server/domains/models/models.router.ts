import { z } from 'zod';
import { idInput } from '../../../shared/schemas/common.ts';
import { listModelMetaInput, modelMetaInput, vendorInput } from '../../../shared/schemas/model-meta.ts';
import { adminProcedure, router } from '../../trpc/trpc.ts';

/* The console's model marketplace screens (admin): model metadata, missing models, vendors. */

/** Vendors are few; the console reads them all at once (the list, the drawer's picker). */
const VENDORS_MAX = 1000;

export const modelMetaRouter = router({
  list: adminProcedure
    .input(listModelMetaInput)
    .query(({ ctx, input }) =>
      ctx.services.modelMeta.list(
        { keyword: input.keyword, vendor: input.vendorId === undefined ? '' : String(input.vendorId) },
        (input.page - 1) * input.pageSize,
        input.pageSize,
      ),
    ),
  /** Creates a row, or edits it when `id` is given. */
  save: adminProcedure
    .input(modelMetaInput)
    .mutation(({ ctx, input }) =>
      input.id ? ctx.services.modelMeta.update(input) : ctx.services.modelMeta.create(input),
    ),
  setStatus: adminProcedure
    .input(z.object({ id: z.number().int().positive(), status: z.union([z.literal(0), z.literal(1)]) }))
    .mutation(({ ctx, input }) => ctx.services.modelMeta.setStatus(input.id, input.status)),
  remove: adminProcedure.input(idInput).mutation(({ ctx, input }) => ctx.services.modelMeta.remove(input.id)),
  missing: adminProcedure.query(({ ctx }) => ctx.services.modelCatalog.missing()),
  /** One click: empty exact-name rows for these missing models (all of them when none are named). */
  createMissing: adminProcedure
    .input(z.object({ names: z.array(z.string().max(512)).max(5000).optional() }).optional())
    .mutation(({ ctx, input }) => ctx.services.modelMeta.createMissing(input?.names)),
});

export const vendorsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await ctx.services.vendors.list('', 0, VENDORS_MAX)).items),
  /** Creates a vendor, or edits it when `id` is given. */
  save: adminProcedure
    .input(vendorInput)
    .mutation(({ ctx, input }) => (input.id ? ctx.services.vendors.update(input) : ctx.services.vendors.create(input))),
  remove: adminProcedure.input(idInput).mutation(({ ctx, input }) => ctx.services.vendors.remove(input.id)),
});
