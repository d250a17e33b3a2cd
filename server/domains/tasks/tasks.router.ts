import { isAdmin } from '../../../shared/constants.ts';
import { mjListInput, taskListInput } from '../../../shared/schemas/tasks.ts';
import { router, userProcedure } from '../../trpc/trpc.ts';

/** The console's drawing and task (music, video) logs: admins see everyone's, users their own (admin filters ignored). */
export const tasksRouter = router({
  drawings: userProcedure
    .input(mjListInput)
    .query(({ ctx, input }) =>
      isAdmin(ctx.user.role) ? ctx.services.tasks.listMj(input) : ctx.services.tasks.listMjSelf(ctx.user.id, input),
    ),
  music: userProcedure
    .input(taskListInput)
    .query(({ ctx, input }) =>
      ctx.services.tasks.listTasksConsole(input, isAdmin(ctx.user.role) ? undefined : ctx.user.id),
    ),
});
