import { z } from 'zod';
import { adminProcedure, publicProcedure, rootProcedure, router } from '../../trpc/trpc.ts';

export const pricingRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.services.pricing.list(ctx.user)),
  /** Models without a price: of the given list (a channel form), else of every enabled channel. */
  unpriced: adminProcedure
    .input(z.object({ models: z.array(z.string().max(512)).max(5000).optional() }).optional())
    .query(({ ctx, input }) => ctx.services.pricing.unpriced(input?.models)),
  /** Video models enabled channels serve: the price editor offers "per second / per video" for them. */
  videoModels: adminProcedure.query(({ ctx }) => ctx.services.pricing.videoModels()),
  /** The shipped preset prices still in effect; root, as every price write is (options). */
  presets: rootProcedure.query(({ ctx }) => ctx.services.pricing.presets()),
  clearPresets: rootProcedure.mutation(({ ctx }) => ctx.services.pricing.clearPresets()),
});
