import {
  createUserInput,
  deleteSelfInput,
  listUsersInput,
  manageUserInput,
  updateSelfInput,
  updateUserInput,
  userIdInput,
} from '../../../shared/schemas/users.ts';
import { adminProcedure, router, userProcedure } from '../../trpc/trpc.ts';

export const usersRouter = router({
  // Self
  self: userProcedure.query(({ ctx }) => ctx.services.users.getSelf(ctx.user.id)),
  updateSelf: userProcedure
    .input(updateSelfInput)
    .mutation(({ ctx, input }) => ctx.services.users.updateSelf(ctx.user.id, input)),
  deleteSelf: userProcedure.input(deleteSelfInput).mutation(async ({ ctx, input }) => {
    await ctx.services.users.deleteSelf(ctx.user.id, input.confirmUsername);
    await ctx.endSession();
  }),
  generateAccessToken: userProcedure.mutation(({ ctx }) => ctx.services.users.generateAccessToken(ctx.user.id)),
  affCode: userProcedure.query(({ ctx }) => ctx.services.users.getAffCode(ctx.user.id)),
  models: userProcedure.query(({ ctx }) => ctx.services.users.userModels(ctx.user)),
  selfGroups: userProcedure.query(({ ctx }) => ctx.services.users.selfGroups(ctx.user)),

  // Administration
  list: adminProcedure.input(listUsersInput).query(({ ctx, input }) => ctx.services.users.listUsers(input)),
  get: adminProcedure.input(userIdInput).query(({ ctx, input }) => ctx.services.users.getUser(ctx.user, input.id)),
  create: adminProcedure
    .input(createUserInput)
    .mutation(({ ctx, input }) => ctx.services.users.createUser(ctx.user, input)),
  update: adminProcedure
    .input(updateUserInput)
    .mutation(({ ctx, input }) => ctx.services.users.updateUser(ctx.user, input)),
  manage: adminProcedure
    .input(manageUserInput)
    .mutation(({ ctx, input }) => ctx.services.users.manageUser(ctx.user, input)),
  remove: adminProcedure
    .input(userIdInput)
    .mutation(({ ctx, input }) => ctx.services.users.removeUser(ctx.user, input.id)),
});

export const groupsRouter = router({
  /** Every group name that has a ratio (GET /api/group/). */
  list: adminProcedure.query(({ ctx }) => ctx.services.users.groupNames()),
  /** Groups the signed-in user may pick for tokens, with ratio and description. */
  usable: userProcedure.query(({ ctx }) => ctx.services.users.selfGroups(ctx.user)),
});
