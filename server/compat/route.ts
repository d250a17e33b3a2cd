import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { z } from 'zod';
import type { AppDeps, AuthUser } from '../context.ts';
import { type AuthLevel, endSession, minRoleOf, requireRole, restUser } from '../domains/auth/session.service.ts';
import { markAuthRefusal } from './envelope.ts';
import { decodeBody, decodeQuery } from './go-decode.ts';

/*
 * The REST adapter's one way to declare a route: read the inputs the way new-api's Go
 * handlers do (compat/go-decode.ts) and parse them with shared zod schemas, authenticate
 * like new-api, call one service function, wrap the result in {success, message, data}.
 * Errors are translated once, in compat/envelope.ts.
 */

interface RouteInput<Q, B, P> {
  query: Q;
  body: B;
  params: P;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Signs this browser out: deletes its session and clears the cookie (logout, deleting one's account). */
  endSession: () => Promise<void>;
}

type Authed<L extends AuthLevel> = L extends 'public' ? { user: undefined } : { user: AuthUser };

export interface RouteSpec<L extends AuthLevel, Q, B, P> {
  auth: L;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  params?: z.ZodType<P>;
  /**
   * Failures keep their HTTP status (400, 404, 500...) instead of new-api's usual 200
   * (compat/envelope.ts); `'decode'`: only a body that does not decode does (HTTP 400).
   */
  realStatus?: RealStatus;
}

export type RealStatus = boolean | 'decode';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See RouteSpec.realStatus. */
    realStatus?: RealStatus;
  }
}

/** A handler's answer: plain data (goes to `data`), or a marked envelope/raw answer. */
const RAW = Symbol('raw');
export interface RawAnswer {
  [RAW]: true;
  status: number;
  body: unknown;
}

/** Send `body` as is (for the few new-api calls without the envelope). */
export const raw = (body: unknown, status = 200): RawAnswer => ({ [RAW]: true, status, body });

/** The envelope with a message and optional data (e.g. "bind", "划转成功"). */
export const withMessage = (message: string, data?: unknown, extra: Record<string, unknown> = {}): RawAnswer =>
  raw({ success: true, message, ...(data === undefined ? {} : { data }), ...extra });

const isRaw = (v: unknown): v is RawAnswer => typeof v === 'object' && v !== null && RAW in v;

export function restRoute<L extends AuthLevel, Q = undefined, B = undefined, P = undefined>(
  app: FastifyInstance,
  deps: AppDeps,
  method: HTTPMethods,
  url: string,
  spec: RouteSpec<L, Q, B, P>,
  handler: (input: RouteInput<Q, B, P> & Authed<L>) => unknown,
): void {
  app.route({
    method,
    url,
    config: { realStatus: spec.realStatus ?? false },
    handler: async (req, reply) => {
      let user: AuthUser | undefined;
      try {
        user =
          spec.auth === 'public'
            ? undefined
            : requireRole(await restUser(deps, req), minRoleOf[spec.auth as keyof typeof minRoleOf]);
      } catch (err) {
        throw markAuthRefusal(err);
      }
      const input = {
        query: (spec.query ? decodeQuery(spec.query, req.query) : undefined) as Q,
        body: (spec.body ? decodeBody(spec.body, req.body) : undefined) as B,
        params: (spec.params ? spec.params.parse(req.params ?? {}) : undefined) as P,
        req,
        reply,
        endSession: () => endSession(deps.db, req, reply),
        user,
      } as RouteInput<Q, B, P> & Authed<L>;
      const result = await handler(input);
      if (reply.sent) return reply;
      if (isRaw(result)) return reply.status(result.status).send(result.body);
      return reply.send(
        result === undefined ? { success: true, message: '' } : { success: true, message: '', data: result },
      );
    },
  });
}

/** Query-string helpers: new-api clients send numbers and booleans as text, sometimes empty. */
export const q = {
  int: (fallback: number) =>
    z.preprocess(
      (v) => (v === undefined || v === '' ? fallback : v),
      z.coerce.number({ message: '参数必须是数字' }).int('参数必须是整数'),
    ),
  bool: () => z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()),
  str: () => z.preprocess((v) => (v === undefined ? '' : v), z.string()),
  id: () => z.coerce.number({ message: 'id 必须是数字' }).int('id 必须是整数').positive('id 无效'),
};
