import { redeemInput } from '../../../shared/schemas/redemptions.ts';
import { payInput, topUpAmountInput, topUpListInput } from '../../../shared/schemas/wallet.ts';
import { router, userProcedure } from '../../trpc/trpc.ts';

/** The console's wallet: balance, redeeming a code, online top-up and the user's own orders. */
export const walletRouter = router({
  balance: userProcedure.query(({ ctx }) => ctx.services.topup.balance(ctx.user.id)),
  redeem: userProcedure
    .input(redeemInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.redeem(ctx.user, input.key)),
  amount: userProcedure
    .input(topUpAmountInput)
    .mutation(({ ctx, input }) => ({ price: ctx.services.topup.quote(ctx.user, input) })),
  pay: userProcedure
    .input(payInput)
    .mutation(({ ctx, input }) => ctx.services.topup.pay(ctx.user, input, `${ctx.req.protocol}://${ctx.req.host}`)),
  topUps: userProcedure
    .input(topUpListInput)
    .query(({ ctx, input }) => ctx.services.topup.listTopUps(ctx.user.id, input.page, input.pageSize)),
});
