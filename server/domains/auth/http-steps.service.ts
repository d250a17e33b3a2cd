import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginInput, RegisterInput } from '../../../shared/schemas/users.ts';
import type { AppDeps } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { OptionsService } from '../options/options.service.ts';
import { type SecondStepNeeded, startSecondStep } from '../twofa/login-step.service.ts';
import type { LoginUserView } from '../users/users.view.ts';
import { startSession } from './session.service.ts';
import { type HumanClient, verifyTurnstileToken } from './verification.service.ts';

/*
 * The steps of signing in that need the HTTP request, written once for both adapters (auth.rest.ts and
 * auth.router.ts): the human-verification memory, then password login and registration around the services.
 */

/*
 * "After one success the session remembers it" (api-contract §0.3). Visitors
 * have no database session yet, so the memory is a signed, HttpOnly cookie
 * with its own expiry; the per-IP limits still apply to every call.
 */
const HUMAN_COOKIE = 'human';
const HUMAN_TTL_S = 3600;

function remembered(req: FastifyRequest): boolean {
  const cookie = req.cookies[HUMAN_COOKIE];
  if (!cookie) return false;
  const unsigned = req.unsignCookie(cookie);
  if (!unsigned.valid || !unsigned.value) return false;
  return Number(unsigned.value) > Date.now() / 1000;
}

/**
 * The caller as the sign-in services see it. When Turnstile is on and a token
 * came with the call, it is checked here once (tokens are single-use), and a
 * success is remembered for this browser.
 */
export async function humanClient(
  options: OptionsService,
  req: FastifyRequest,
  reply: FastifyReply,
  turnstile: string | undefined,
): Promise<HumanClient> {
  const client: HumanClient = { ip: req.ip, turnstile };
  if (!options.get('TurnstileCheckEnabled')) return client;
  if (remembered(req)) return { ...client, humanVerified: true };
  await verifyTurnstileToken(options, turnstile, req.ip);
  reply.setCookie(HUMAN_COOKIE, String(nowSeconds() + HUMAN_TTL_S), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: HUMAN_TTL_S,
    signed: true,
  });
  return { ...client, humanVerified: true };
}

/**
 * Password login as either transport does it: human check, password check, then the session cookie;
 * or, for a user with two-factor on, no session yet but a pending second step (twofa/login-step.service.ts).
 */
export async function passwordLogin(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  input: LoginInput,
  turnstile: string | undefined,
): Promise<LoginUserView | SecondStepNeeded> {
  const user = await deps.services.auth.login(input, await humanClient(deps.services.options, req, reply, turnstile));
  if (await deps.services.twoFactor.isEnabled(user.id)) return startSecondStep(deps, req, reply, user.id);
  await startSession(deps.db, req, reply, user.id);
  return user;
}

/** Self sign-up with a password as either transport does it: human check, then the account (no session). */
export async function passwordRegister(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  input: RegisterInput,
  turnstile: string | undefined,
) {
  return deps.services.auth.register(input, await humanClient(deps.services.options, req, reply, turnstile));
}
