import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VerifyMethod } from '../twofa/secure-verify.service.ts';
import type { CeremonySite, PasskeysService } from './passkeys.service.ts';

/*
 * The browser side of a ceremony, for both transports (passkeys.rest.ts and passkeys.router.ts): a signed,
 * HttpOnly cookie names this browser's ceremonies, so a challenge handed to one browser cannot be answered
 * from another (sign-in starts before there is a session to bind to). The origin is the address the browser
 * used, which the relying party falls back to when no ServerAddress or passkey origins are set.
 */

const FLOW_COOKIE = 'passkey_flow';
const FLOW_MAX_AGE_S = 24 * 3600;

function readFlow(req: FastifyRequest): string | undefined {
  const cookie = req.cookies[FLOW_COOKIE];
  if (!cookie) return undefined;
  const unsigned = req.unsignCookie(cookie);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

export const requestOrigin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** For a begin call: this browser's flow id, given a new cookie when it has none. */
export function startSite(req: FastifyRequest, reply: FastifyReply): CeremonySite {
  let flow = readFlow(req);
  if (!flow) {
    flow = randomBytes(18).toString('base64url');
    reply.setCookie(FLOW_COOKIE, flow, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: req.protocol === 'https',
      maxAge: FLOW_MAX_AGE_S,
      signed: true,
    });
  }
  return { flow, origin: requestOrigin(req) };
}

/** For a finish call (and POST /api/verify): the flow id the begin call gave; '' finds no challenge. */
export const currentSite = (req: FastifyRequest): CeremonySite => ({
  flow: readFlow(req) ?? '',
  origin: requestOrigin(req),
});

/** The 'passkey' method of POST /api/verify (twofa/secure-verify.service.ts): this browser's fresh passkey check. */
export const passkeyVerifyMethod =
  (passkeys: PasskeysService): VerifyMethod =>
  ({ user, req }) =>
    passkeys.confirmVerified(user.id, currentSite(req).flow);
