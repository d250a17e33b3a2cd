import { publicProcedure, router } from '../../trpc/trpc.ts';

export const statusRouter = router({
  get: publicProcedure.query(({ ctx }) => ctx.services.status.getStatus()),
  content: publicProcedure.query(({ ctx }) => ({
    notice: ctx.services.options.get('Notice'),
    about: ctx.services.options.get('About'),
    homePageContent: ctx.services.options.get('HomePageContent'),
  })),
});
