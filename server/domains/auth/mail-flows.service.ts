import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { nowSeconds } from '../../db/time.ts';
import { AppError, badRequest, conflict, tooManyRequests } from '../../errors.ts';
import { deleteUserSessions } from './session.repo.ts';
import { hashPassword } from './password.service.ts';
import { randomAlphanumeric } from '../../random.ts';
import { emailTaken, updateUser } from '../users/users.repo.ts';
import { checkHumanVerification, EMAIL_VERIFY_PURPOSE, type HumanClient } from './verification.service.ts';
import { assertAllowedEmail } from './email.rules.ts';
import type { AuthDeps } from './auth.deps.ts';
import { consumeVerificationCode, deleteCode, findLiveUserByEmail, insertCode } from './auth.repo.ts';

const CODE_TTL_S = 10 * 60;
const RESET_TTL_S = 15 * 60;
const RESEND_MS = 30_000;
/** Mails cost the operator money and reputation: few per address, and few per IP. */
const MAIL_IP_LIMIT = { limit: 10, windowMs: 10 * 60_000 };
const RESET_PURPOSE = 'password_reset';
const NEW_PASSWORD_LENGTH = 12;

export const emailQuery = z.object({ email: z.string().default(''), turnstile: z.string().optional() });
export const emailBindQuery = z.object({ email: z.string().default(''), code: z.string().default('') });
export const resetInput = z.object({ email: z.string().default(''), token: z.string().default('') });

const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Registration codes, e-mail binding and password reset by mail (api-contract §2, §9). */
export function createMailFlows(d: AuthDeps) {
  async function throttle(action: string, ip: string, email: string) {
    const byIp = await d.rateLimits.take(`${action}:${ip}`, MAIL_IP_LIMIT.limit, MAIL_IP_LIMIT.windowMs);
    if (!byIp.allowed) throw tooManyRequests();
    const byAddress = await d.rateLimits.take(`${action}:to:${email.toLowerCase()}`, 1, RESEND_MS);
    if (!byAddress.allowed) throw tooManyRequests('mail.too_frequent');
  }

  /** Stores the code, mails it, and takes it back when the mail cannot go (nothing half-done is left). */
  async function sendCode(purpose: string, to: string, code: string, ttlS: number, subject: string, html: string) {
    await insertCode(d.db, purpose, to, code, ttlS);
    try {
      await d.mail.sendMail({ to, subject, html });
    } catch (err) {
      await deleteCode(d.db, purpose, to, code);
      // A refusal of our own (SMTP not configured) says exactly what is wrong: the user sees it as it is.
      if (err instanceof AppError) throw err;
      // The SMTP error may name the server and account: log it for the operator, tell the user less.
      d.log.warn({ err: (err as Error).message }, 'sign-in mail failed');
      throw new AppError('INTERNAL', 'mail.send_failed');
    }
  }

  const site = () => d.options.get('SystemName');

  return {
    /** GET /api/verification: a 6-digit code for registration or binding, valid 10 minutes. */
    async sendVerificationCode(raw: unknown, client: HumanClient): Promise<void> {
      const input = emailQuery.parse(raw);
      await checkHumanVerification(d.options, client);
      const email = assertAllowedEmail(d.options, input.email);
      if (await emailTaken(d.db, email)) throw conflict('user.email_taken');
      await throttle('mail-code', client.ip, email);
      const code = sixDigits();
      await sendCode(
        EMAIL_VERIFY_PURPOSE,
        email,
        code,
        CODE_TTL_S,
        `${site()}邮箱验证邮件`,
        `<p>您好，你正在进行${site()}邮箱验证。</p>\n<p>您的验证码为: <strong>${code}</strong></p>\n<p>验证码 10 分钟内有效，如果不是本人操作，请忽略。</p>`,
      );
    },

    /** GET /api/oauth/email/bind: sets the signed-in user's e-mail once the code matches. */
    async bindEmail(userId: number, raw: unknown): Promise<void> {
      const input = emailBindQuery.parse(raw);
      if (input.email.trim() === '') throw badRequest('mail.enter_email');
      if (input.code.trim() === '') throw badRequest('mail.enter_code');
      const email = assertAllowedEmail(d.options, input.email);
      // Codes are 6 digits: cap the guesses one account can make at someone else's address.
      const tries = await d.rateLimits.take(`bind-email:${userId}`, MAIL_IP_LIMIT.limit, MAIL_IP_LIMIT.windowMs);
      if (!tries.allowed) throw tooManyRequests();
      const ok = await d.db.transaction().execute(async (tx) => {
        if (!(await consumeVerificationCode(tx, EMAIL_VERIFY_PURPOSE, email, input.code.trim()))) return false;
        if (await emailTaken(tx, email)) throw conflict('user.email_taken');
        await updateUser(tx, userId, { email });
        return true;
      });
      if (!ok) throw badRequest('verify.code_wrong');
    },

    /**
     * GET /api/reset_password: mails a single-use link valid 15 minutes. An unknown
     * address gets the same answer (and no mail), so the form does not reveal accounts.
     */
    async sendPasswordReset(raw: unknown, client: HumanClient & { origin: string }): Promise<void> {
      const input = emailQuery.parse(raw);
      await checkHumanVerification(d.options, client);
      const email = input.email.trim();
      if (email === '' || !email.includes('@')) throw badRequest('mail.invalid_address');
      await throttle('mail-reset', client.ip, email);
      if (!(await findLiveUserByEmail(d.db, email))) return;
      const token = randomAlphanumeric(32);
      const base = (d.options.get('ServerAddress') || client.origin).replace(/\/$/, '');
      const link = `${base}/user/reset?${new URLSearchParams({ email, token }).toString()}`;
      await sendCode(
        RESET_PURPOSE,
        email,
        token,
        RESET_TTL_S,
        `${site()}密码重置`,
        `<p>您好，你正在进行${site()}密码重置。</p>\n<p>点击 <a href="${link}">此处</a> 进行密码重置。</p>\n<p>如果链接无法点击，请尝试点击下面的链接或将其复制到浏览器中打开：<br>\n${link}\n</p>\n<p>重置链接 15 分钟内有效，如果不是本人操作，请忽略。</p>`,
      );
    },

    /** POST /api/user/reset: uses up the token, sets a random 12-char password and signs out everywhere. */
    async resetPassword(raw: unknown, ip: string): Promise<string> {
      const input = resetInput.parse(raw);
      const byIp = await d.rateLimits.take(`reset:${ip}`, MAIL_IP_LIMIT.limit, MAIL_IP_LIMIT.windowMs);
      if (!byIp.allowed) throw tooManyRequests();
      const email = input.email.trim();
      if (email === '' || input.token === '') throw badRequest('common.invalid_params');
      const user = await findLiveUserByEmail(d.db, email);
      const password = randomAlphanumeric(NEW_PASSWORD_LENGTH);
      const hash = await hashPassword(password);
      const done = await d.db.transaction().execute(async (tx) => {
        if (!user || !(await consumeVerificationCode(tx, RESET_PURPOSE, email, input.token))) return false;
        await updateUser(tx, user.id, { password: hash });
        await deleteUserSessions(tx, user.id, nowSeconds());
        return true;
      });
      if (!done) throw badRequest('mail.reset_link_invalid');
      return password;
    },
  };
}
