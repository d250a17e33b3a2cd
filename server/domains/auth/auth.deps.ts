import type { MailService } from '../mail/mailer.client.ts';
import type { UsersDeps } from '../users/users.rules.ts';

/** What the auth services are built from (the users domain's deps, whose rows they read and write, plus the mailer). */
export interface AuthDeps extends UsersDeps {
  mail: MailService;
}
