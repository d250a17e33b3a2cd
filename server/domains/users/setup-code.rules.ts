import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/*
 * Until setup is done, whoever submits the wizard becomes root. A server listening on 0.0.0.0 (the
 * default HOST) must not hand that to whoever reaches it first (issue 39): the wizard then asks for a
 * setup code that only the operator can read, in the server log printed at start. A browser on the
 * server itself (loopback, no proxy in between) is the operator already and is not asked.
 *
 * The code is derived from the session secret (kept in DATA_DIR or SESSION_SECRET): the same after a
 * restart and on every instance sharing that secret, unguessable without it, and useless once setup is done.
 */

/** Crockford's base32: no I, L, O, U, so a code read off a terminal is typed back without confusion. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Eight characters (40 bits), shown as `XXXX-XXXX`. */
export function setupCodeOf(secret: string): string {
  const bits = createHmac('sha256', secret).update('switchyard setup code').digest().readUIntBE(0, 5);
  let code = '';
  for (let i = 7; i >= 0; i--) code += ALPHABET[Math.floor(bits / 32 ** i) % 32];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The typed code as the code: case, spaces and dashes ignored; O read as 0, I and L as 1 (Crockford). */
const normalise = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

export function isSetupCode(expected: string, typed: string): boolean {
  const a = Buffer.from(normalise(expected));
  const b = Buffer.from(normalise(typed));
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Headers a reverse proxy adds: a request carrying one came through a proxy, whatever its socket says. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'];

/**
 * The request comes from the server itself: its connection is from a loopback address and no proxy
 * forwarded it. Read from the socket, not from TRUST_PROXY's client address, so a proxy on the same
 * machine (every request then comes from 127.0.0.1) never opens the wizard to the network, and a
 * forged X-Forwarded-For cannot make a remote caller look local.
 */
export function isLoopbackCaller(remoteAddress: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (remoteAddress === undefined || !LOOPBACK.test(remoteAddress)) return false;
  return FORWARDING_HEADERS.every((h) => headers[h] === undefined);
}
