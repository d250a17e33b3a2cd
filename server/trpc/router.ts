import { inboxRouter, messagesRouter } from '../domains/messages/messages.router.ts';
import { optionsRouter } from '../domains/options/options.router.ts';
import { statusRouter } from '../domains/status/status.router.ts';
import { router } from './trpc.ts';

/** The console's API. The client imports only the type. */
export const appRouter = router({
  status: statusRouter,
  options: optionsRouter,
  messages: messagesRouter,
  inbox: inboxRouter,
});

export type AppRouter = typeof appRouter;
