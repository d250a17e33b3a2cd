import { z } from 'zod';
import { adminProcedure, publicProcedure, router } from '../../trpc/trpc.ts';

export const pricingRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.services.pricing.list(ctx.user)),
  /** Models without a price: of the given list (a channel form), else of every enabled channel. */
  unpriced: adminProcedure
    .input(z.object({ models: z.array(z.string().max(512)).max(5000).optional() }).optional())
    .query(({ ctx, input }) => ctx.services.pricing.unpriced(input?.models)),
});
