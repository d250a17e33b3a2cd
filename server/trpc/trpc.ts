import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { ZodError } from 'zod';
import { classifyError } from '../compat/envelope.ts';
import type { AppDeps, AuthUser } from '../context.ts';
import { matchServerText, type ServerMessage, serverText } from '../../shared/server-messages.ts';
import { AppError, type ErrorCode, isAppError } from '../errors.ts';
import { endSession, minRoleOf, requireRole, sessionUser } from '../domains/auth/session.service.ts';

export interface TrpcContext extends AppDeps {
  req: CreateFastifyContextOptions['req'];
  reply: CreateFastifyContextOptions['res'];
  user: AuthUser | undefined;
  /** Signs this browser out: deletes its session and clears the cookie (logout, deleting one's account). */
  endSession: () => Promise<void>;
}

export function createContextFactory(deps: AppDeps) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<TrpcContext> => ({
    ...deps,
    req,
    reply: res,
    user: await sessionUser(deps, req),
    endSession: () => endSession(deps.db, req, res),
  });
}

const trpcCodeOf: Record<ErrorCode, TRPCError['code']> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  NOT_IMPLEMENTED: 'NOT_IMPLEMENTED',
  BAD_GATEWAY: 'BAD_GATEWAY',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

const t = initTRPC.context<TrpcContext>().create({
  /** The one translator of AppError for tRPC: the message is the spec's text; 5xx details stay hidden. */
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    let message = shape.message;
    // What the console translates (client/lib/server-messages.ts); `message` stays the REST wording.
    let said: ServerMessage | undefined;
    // Technical detail for the console's "details" disclosure (AppError `technical`), never the message.
    let detail: string | undefined;
    // The same wording as the REST envelope (zod's own English messages name their field).
    if (cause instanceof ZodError) {
      message = classifyError(cause).message;
      said = matchServerText(message);
    } else if (isAppError(cause)) {
      message = cause.message;
      said = cause.serverMessage;
      detail = cause.technical;
      // A refusal that ends at a known time (a sign-in lock): the header, as on REST, and the data field.
      if (cause.retryAfterSeconds !== undefined) ctx?.reply.header('retry-after', String(cause.retryAfterSeconds));
    } else if (error.code === 'INTERNAL_SERVER_ERROR') {
      said = { code: 'common.internal', params: {} };
      message = serverText(said.code);
    }
    return {
      ...shape,
      message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        messageCode: said?.code,
        messageParams: said?.params,
        detail,
        retryAfterSeconds: isAppError(cause) ? cause.retryAfterSeconds : undefined,
      },
    };
  },
});

/** Services throw AppError; tRPC needs TRPCError for the right status. */
const translateErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause as AppError;
    throw new TRPCError({ code: trpcCodeOf[cause.code], message: cause.message, cause });
  }
  return result;
});

const withRole = (minRole: number) =>
  t.middleware(({ ctx, next }) => {
    try {
      return next({ ctx: { user: requireRole(ctx.user, minRole) } });
    } catch (err) {
      const e = err as AppError;
      throw new TRPCError({ code: trpcCodeOf[e.code], message: e.message, cause: e });
    }
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(translateErrors);
export const userProcedure = publicProcedure.use(withRole(minRoleOf.user));
export const adminProcedure = publicProcedure.use(withRole(minRoleOf.admin));
export const rootProcedure = publicProcedure.use(withRole(minRoleOf.root));
