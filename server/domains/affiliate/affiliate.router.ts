import { affTransferInput } from '../../../shared/schemas/affiliate.ts';
import { router, userProcedure } from '../../trpc/trpc.ts';

export const affiliateRouter = router({
  info: userProcedure.query(({ ctx }) => ctx.services.affiliate.info(ctx.user.id)),
  transfer: userProcedure
    .input(affTransferInput)
    .mutation(({ ctx, input }) => ctx.services.affiliate.transfer(ctx.user.id, input.quota)),
});
