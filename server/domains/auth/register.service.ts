import { type RegisterInput, registerInput } from '../../../shared/schemas/users.ts';
import { badRequest, conflict } from '../../errors.ts';
import { type ClientInfo, throttleAuth } from './login.service.ts';
import { hashPassword } from './password.service.ts';
import { createSignedUpAccount } from './signup.service.ts';
import { emailTaken, usernameTaken } from '../users/users.repo.ts';
import { assertPassword, assertUsername } from '../users/users.rules.ts';
import type { AuthDeps } from './auth.deps.ts';
import { checkHumanVerification, verifyRegistrationEmail } from './verification.service.ts';

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Self sign-up with a password (api-contract §2 register). */
export function createRegisterService(d: AuthDeps) {
  return {
    async register(raw: RegisterInput, client: ClientInfo): Promise<{ id: number }> {
      await throttleAuth(d, 'register', client.ip);
      const input = registerInput.parse(raw);
      if (!d.options.get('RegisterEnabled')) throw badRequest('register.disabled');
      if (!d.options.get('PasswordRegisterEnabled')) throw badRequest('register.password_disabled');
      await checkHumanVerification(d.options, client);

      assertUsername(input.username);
      assertPassword(input.password);
      if (input.password2 !== undefined && input.password2 !== input.password)
        throw badRequest('register.passwords_differ');
      const email = input.email ?? '';
      if (email !== '' && !EMAIL_FORMAT.test(email)) throw badRequest('register.email_format');
      if (await usernameTaken(d.db, input.username)) throw conflict('user.username_taken');
      if (email !== '' && (await emailTaken(d.db, email))) throw conflict('user.email_taken');

      const passwordHash = await hashPassword(input.password);
      const id = await d.db.transaction().execute(async (tx) => {
        await verifyRegistrationEmail(tx, d.options, email, input.verification_code ?? '');
        return createSignedUpAccount(d, tx, { username: input.username, passwordHash, email, affCode: input.aff_code });
      });
      return { id };
    },
  };
}
