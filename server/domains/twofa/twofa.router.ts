import { z } from 'zod';
import { twoFaCodeInput } from '../../../shared/schemas/twofa.ts';
import { adminProcedure, publicProcedure, router, userProcedure } from '../../trpc/trpc.ts';
import { finishSecondStep } from './login-step.service.ts';

/**
 * The console's two-factor calls: Me › Security turns it on and off and renews backup codes, the sign-in
 * page sends the code of the second step (auth.login answers `require_2fa` first), the user table's row
 * menu resets it. Same service, pending sign-in and session cookie as the REST adapter.
 */
export const twoFactorRouter = router({
  status: userProcedure.query(({ ctx }) => ctx.services.twoFactor.status(ctx.user.id)),
  setup: userProcedure.mutation(({ ctx }) => ctx.services.twoFactor.setup(ctx.user.id)),
  enable: userProcedure
    .input(twoFaCodeInput)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.enable(ctx.user.id, input.code)),
  disable: userProcedure
    .input(twoFaCodeInput)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.disable(ctx.user.id, input.code)),
  regenerateBackupCodes: userProcedure
    .input(twoFaCodeInput)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.regenerateBackupCodes(ctx.user.id, input.code)),
  login: publicProcedure
    .input(twoFaCodeInput)
    .mutation(({ ctx, input }) => finishSecondStep(ctx, ctx.req, ctx.reply, input.code)),
  adminReset: adminProcedure
    .input(z.object({ id: z.number().int().positive() }))
    .mutation(({ ctx, input }) => ctx.services.twoFactor.adminReset(ctx.user, input.id)),
});
