import type { Db } from '../../db/types.ts';
import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { providerUrls } from './endpoints.client.ts';
import { consumeVerificationCode } from './auth.repo.ts';

/** Who is asking, as the transports know it. */
export interface HumanClient {
  ip: string;
  /** Turnstile token from `?turnstile=`. */
  turnstile?: string;
  /** A Turnstile check already passed in this browser session (signed cookie; api-contract §0.3). */
  humanVerified?: boolean;
}

/** Asks the Turnstile verify endpoint (Cloudflare's unless overridden) whether the token is good. */
export async function verifyTurnstileToken(options: OptionsService, token: string | undefined, ip: string) {
  if (!token) throw badRequest('verify.turnstile_empty');
  let ok: boolean;
  try {
    const res = await fetch(providerUrls().turnstileVerify, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: options.get('TurnstileSecretKey'), response: token, remoteip: ip }),
      signal: AbortSignal.timeout(10_000),
    });
    ok = res.ok && ((await res.json()) as { success?: boolean }).success === true;
  } catch {
    ok = false;
  }
  if (!ok) throw badRequest('verify.turnstile_failed');
}

/** Cloudflare Turnstile on login, register, verification mails and resets when TurnstileCheckEnabled is on. */
export async function checkHumanVerification(options: OptionsService, client: HumanClient): Promise<void> {
  if (!options.get('TurnstileCheckEnabled') || client.humanVerified) return;
  await verifyTurnstileToken(options, client.turnstile, client.ip);
}

export const EMAIL_VERIFY_PURPOSE = 'email_verify';

/**
 * With EmailVerificationEnabled, registration needs the e-mail and a code sent
 * to it (a `verification_codes` row, consumed here). Runs inside the
 * registration transaction so a failed registration does not burn the code.
 */
export async function verifyRegistrationEmail(
  db: Db,
  options: OptionsService,
  email: string,
  code: string,
): Promise<void> {
  if (!options.get('EmailVerificationEnabled')) return;
  if (email === '' || code === '') throw badRequest('register.email_verification_required');
  if (!(await consumeVerificationCode(db, EMAIL_VERIFY_PURPOSE, email, code))) throw badRequest('verify.code_wrong');
}
