import { router, userProcedure } from '../../trpc/trpc.ts';

export const checkInRouter = router({
  status: userProcedure.query(({ ctx }) => ctx.services.checkIn.status(ctx.user.id)),
  checkIn: userProcedure.mutation(async ({ ctx }) => ({
    quota: (await ctx.services.checkIn.checkIn(ctx.user.id)).quota,
  })),
});
