import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role } from '../shared/constants.ts';
import type { AuthUser } from '../server/context.ts';
import { endSession } from '../server/domains/auth/session.service.ts';
import type { UserRow } from '../server/db/types.ts';
import { createCallerFactory, type TrpcContext } from '../server/trpc/trpc.ts';
import { appRouter } from '../server/trpc/router.ts';
import type { TestApp } from './app.ts';

/*
 * User and session helpers for tests of every domain: set up root, create
 * users of any role straight through the users service, log in over HTTP,
 * and call tRPC procedures as a given user.
 */

export const ROOT_USERNAME = 'root';
export const ROOT_PASSWORD = 'RootPass123!';

/** Runs the setup wizard (root / RootPass123! unless given); returns root's row. */
export async function setupRoot(
  t: TestApp,
  opts: {
    username?: string;
    password?: string;
    selfUse?: boolean;
    demoSite?: boolean;
    /** The install's language (root's display name, localized defaults); the wizard's default is Chinese. */
    language?: 'zh' | 'en';
  } = {},
): Promise<UserRow> {
  const username = opts.username ?? ROOT_USERNAME;
  const password = opts.password ?? ROOT_PASSWORD;
  await t.deps.services.users.setup(
    {
      username,
      password,
      confirmPassword: password,
      SelfUseModeEnabled: opts.selfUse ?? false,
      DemoSiteEnabled: opts.demoSite ?? false,
      ...(opts.language ? { language: opts.language } : {}),
    },
    { loopback: true },
  );
  const row = await t.deps.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  if (!row) throw new Error('setupRoot: root was not created');
  return row;
}

let userSeq = 0;

export interface CreatedUser {
  id: number;
  username: string;
  password: string;
}

/** Creates a user of any role directly (no switches, no rate limit). Defaults: unique name, common role. */
export async function createUser(
  t: TestApp,
  opts: { username?: string; password?: string; role?: number; quota?: number; group?: string } = {},
): Promise<CreatedUser> {
  userSeq += 1;
  const username = opts.username ?? `user${userSeq}_${Math.random().toString(36).slice(2, 6)}`;
  const password = opts.password ?? 'Passw0rd!';
  const row = await t.deps.services.users.createUserDirect({
    username,
    password,
    role: opts.role ?? Role.Common,
    quota: opts.quota,
    group: opts.group,
  });
  return { id: Number(row.id), username, password };
}

export interface Session {
  cookie: string;
  userId: number;
}

/** A different client address per call, so tests never trip the per-IP login limit by accident. */
export function randomIp(): string {
  const b = () => Math.floor(Math.random() * 250) + 1;
  return `10.${b()}.${b()}.${b()}`;
}

/** POST /api/user/login; throws with the server's message when it fails. */
export async function login(t: TestApp, username: string, password: string): Promise<Session> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username, password },
    remoteAddress: randomIp(),
  });
  const body = res.json() as { success: boolean; message: string; data?: { id: number } };
  if (res.statusCode !== 200 || !body.success || !body.data)
    throw new Error(`login(${username}) failed: ${res.statusCode} ${body.message}`);
  const setCookie = res.headers['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!first) throw new Error(`login(${username}) set no cookie`);
  return { cookie: first.split(';')[0], userId: body.data.id };
}

/** Headers of an authenticated REST call, as the console sends them. */
export function restHeaders(session: Session): Record<string, string> {
  return { cookie: session.cookie, 'new-api-user': String(session.userId) };
}

/** Creates a user of the role and logs in; the usual one-liner for REST tests. */
export async function loginAs(t: TestApp, role: number = Role.Common) {
  const user = await createUser(t, { role });
  const session = await login(t, user.username, user.password);
  return { user, session, headers: restHeaders(session) };
}

const createCaller = createCallerFactory(appRouter);

/** Stand-ins for Fastify's request/reply: enough for procedures that read the IP or set the session cookie. */
function stubHttp() {
  const cookies: { name: string; value: string; cleared?: boolean }[] = [];
  const reply = {
    setCookie(name: string, value: string) {
      cookies.push({ name, value });
      return reply;
    },
    clearCookie(name: string) {
      cookies.push({ name, value: '', cleared: true });
      return reply;
    },
    header() {
      return reply;
    },
  };
  const req = { ip: '127.0.0.1', protocol: 'http', headers: {}, cookies: {}, query: {} };
  return {
    req: req as unknown as FastifyRequest,
    reply: reply as unknown as FastifyReply,
    cookies,
  };
}

/** A tRPC caller acting as `user` (a row, an AuthUser, or undefined for a visitor). */
export function trpcCaller(
  t: TestApp,
  user?: Pick<AuthUser, 'id'> & Partial<AuthUser> & { role: number },
  http = stubHttp(),
) {
  const authUser: AuthUser | undefined = user && {
    id: Number(user.id),
    username: user.username ?? '',
    role: user.role,
    status: user.status ?? 1,
    group: user.group ?? 'default',
  };
  const ctx: TrpcContext = {
    ...t.deps,
    req: http.req,
    reply: http.reply,
    user: authUser,
    endSession: () => endSession(t.deps.db, http.req, http.reply),
  };
  return createCaller(ctx);
}

/** Stub HTTP pair whose cookies can be inspected after a login or logout through tRPC. */
export const trpcHttp = stubHttp;

/**
 * Saves an option and waits until the in-memory copy is settled: each save
 * also triggers a bus reload, during which reads briefly see defaults.
 */
export async function setOption(t: TestApp, key: string, value: string): Promise<void> {
  await t.deps.services.options.update(key, value);
  await t.deps.services.options.load();
}
