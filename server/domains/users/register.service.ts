import { LogType, TOKEN_KEY_LENGTH } from '../../../shared/constants.ts';
import { type RegisterInput, registerInput } from '../../../shared/schemas/users.ts';
import { badRequest, conflict } from '../../errors.ts';
import { insertAccount } from './account.ts';
import { type ClientInfo, throttleAuth } from './login.service.ts';
import { hashPassword } from './password.ts';
import { randomAlphanumeric } from './random.ts';
import {
  creditInviter,
  emailTaken,
  findUserByAffCode,
  insertLog,
  insertUnlimitedToken,
  nowSeconds,
  usernameTaken,
} from './users.repo.ts';
import { assertPassword, assertUsername, EMAIL_TAKEN, USERNAME_TAKEN, type UsersDeps } from './users.rules.ts';
import { checkHumanVerification, verifyRegistrationEmail } from './verification.ts';

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Self sign-up with a password (api-contract §2 register). */
export function createRegisterService(d: UsersDeps) {
  return {
    async register(raw: RegisterInput, client: ClientInfo): Promise<{ id: number }> {
      await throttleAuth(d, 'register', client.ip);
      const input = registerInput.parse(raw);
      if (!d.options.get('RegisterEnabled')) throw badRequest('管理员关闭了新用户注册');
      if (!d.options.get('PasswordRegisterEnabled'))
        throw badRequest('管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
      await checkHumanVerification(d.options, client.turnstile, client.ip);

      assertUsername(input.username);
      assertPassword(input.password);
      if (input.password2 !== undefined && input.password2 !== input.password) throw badRequest('两次输入的密码不一致');
      const email = input.email ?? '';
      if (email !== '' && !EMAIL_FORMAT.test(email)) throw badRequest('邮箱地址格式不正确');
      if (await usernameTaken(d.db, input.username)) throw conflict(USERNAME_TAKEN);
      if (email !== '' && (await emailTaken(d.db, email))) throw conflict(EMAIL_TAKEN);

      const passwordHash = await hashPassword(input.password);
      const o = d.options.get.bind(d.options);
      const forNewUser = o('QuotaForNewUser');
      const forInvitee = o('QuotaForInvitee');
      const forInviter = o('QuotaForInviter');
      const now = nowSeconds();

      const id = await d.db.transaction().execute(async (tx) => {
        await verifyRegistrationEmail(tx, d.options, email, input.verification_code ?? '');
        // An unknown invite code is ignored, as in new-api: the sign-up itself is still wanted.
        const inviter = input.aff_code ? await findUserByAffCode(tx, input.aff_code) : undefined;
        const userId = await insertAccount(tx, {
          username: input.username,
          passwordHash,
          email,
          quota: forNewUser + (inviter ? forInvitee : 0),
          inviterId: inviter?.id,
        });
        const log = (userId: number, username: string, content: string) =>
          insertLog(tx, { user_id: userId, username, created_at: now, type: LogType.System, content });
        if (forNewUser > 0) await log(userId, input.username, `新用户注册赠送 ${forNewUser} 额度`);
        if (inviter) {
          await creditInviter(tx, inviter.id, forInviter);
          if (forInvitee > 0) await log(userId, input.username, `使用邀请码赠送 ${forInvitee} 额度`);
          if (forInviter > 0) await log(inviter.id, inviter.username, `邀请用户赠送 ${forInviter} 额度`);
        }
        if (d.config.generateDefaultToken)
          await insertUnlimitedToken(tx, userId, `${input.username}的初始令牌`, randomAlphanumeric(TOKEN_KEY_LENGTH));
        return userId;
      });
      return { id };
    },
  };
}
