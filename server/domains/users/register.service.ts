import { type RegisterInput, registerInput } from '../../../shared/schemas/users.ts';
import { badRequest, conflict } from '../../errors.ts';
import { type ClientInfo, throttleAuth } from './login.service.ts';
import { hashPassword } from './password.ts';
import { createSignedUpAccount } from './signup.ts';
import { emailTaken, usernameTaken } from './users.repo.ts';
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
      await checkHumanVerification(d.options, client);

      assertUsername(input.username);
      assertPassword(input.password);
      if (input.password2 !== undefined && input.password2 !== input.password) throw badRequest('两次输入的密码不一致');
      const email = input.email ?? '';
      if (email !== '' && !EMAIL_FORMAT.test(email)) throw badRequest('邮箱地址格式不正确');
      if (await usernameTaken(d.db, input.username)) throw conflict(USERNAME_TAKEN);
      if (email !== '' && (await emailTaken(d.db, email))) throw conflict(EMAIL_TAKEN);

      const passwordHash = await hashPassword(input.password);
      const id = await d.db.transaction().execute(async (tx) => {
        await verifyRegistrationEmail(tx, d.options, email, input.verification_code ?? '');
        return createSignedUpAccount(d, tx, { username: input.username, passwordHash, email, affCode: input.aff_code });
      });
      return { id };
    },
  };
}
