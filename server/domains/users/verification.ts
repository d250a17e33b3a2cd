import type { Db } from '../../db/types.ts';
import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { consumeVerificationCode } from './users.repo.ts';

/*
 * Hooks of the sign-in flows that the sign-in issue completes (mail sending,
 * session memory of a passed Turnstile check). What they enforce today is
 * already safe: nothing passes a check that is switched on.
 */

const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Cloudflare Turnstile on login/register when TurnstileCheckEnabled is on. */
export async function checkHumanVerification(
  options: OptionsService,
  token: string | undefined,
  ip: string,
): Promise<void> {
  if (!options.get('TurnstileCheckEnabled')) return;
  if (!token) throw badRequest('Turnstile token 为空');
  let ok: boolean;
  try {
    const res = await fetch(TURNSTILE_VERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: options.get('TurnstileSecretKey'), response: token, remoteip: ip }),
      signal: AbortSignal.timeout(10_000),
    });
    ok = res.ok && ((await res.json()) as { success?: boolean }).success === true;
  } catch {
    ok = false;
  }
  if (!ok) throw badRequest('Turnstile 校验失败，请刷新重试！');
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
  if (email === '' || code === '') throw badRequest('管理员开启了邮箱验证，请输入邮箱地址和验证码');
  if (!(await consumeVerificationCode(db, EMAIL_VERIFY_PURPOSE, email, code))) throw badRequest('验证码错误或已过期');
}
