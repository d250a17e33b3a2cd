import type { Infra } from '../../context.ts';
import type { MailService } from '../mail/mailer.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { UsersDeps } from '../users/users.rules.ts';

/** What the sign-in services are built from (the users domain's deps plus the mailer). */
export interface SigninDeps extends UsersDeps, Infra {
  options: OptionsService;
  mail: MailService;
}
