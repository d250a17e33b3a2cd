import { userSettingInput } from '../../../shared/schemas/user-setting.ts';
import { router, userProcedure } from '../../trpc/trpc.ts';

export const userSettingsRouter = router({
  get: userProcedure.query(({ ctx }) => ctx.services.userSettings.get(ctx.user.id)),
  update: userProcedure
    .input(userSettingInput)
    .mutation(({ ctx, input }) => ctx.services.userSettings.update(ctx.user.id, input)),
});
