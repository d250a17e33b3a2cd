import { publicProcedure, router } from '../../trpc/trpc.ts';

export const pricingRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.services.pricing.list(ctx.user?.group)),
});
