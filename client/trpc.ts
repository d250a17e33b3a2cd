import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../server/trpc/router.ts';

/** Typed hooks for the console API; only the router's type crosses into the client. */
export const trpc = createTRPCReact<AppRouter>();
