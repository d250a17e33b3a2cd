import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, Role } from '../../../shared/constants.ts';
import type { ServerMessageCode } from '../../../shared/server-messages.ts';
import type { Infra } from '../../context.ts';
import { badRequest, forbidden } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { StatusService } from '../status/status.service.ts';

/**
 * How passwords are stored and checked: the auth domain's KDF (auth/password.service.ts), handed in by
 * services.ts so that users/ never imports auth/ (auth builds on users, not the other way round).
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
}

/** What every users service is built from. */
export interface UsersDeps extends Infra {
  options: OptionsService;
  status: StatusService;
  passwords: PasswordHasher;
}

/** The acting user as services need it (the transports' AuthUser fits). */
export interface Actor {
  id: number;
  role: number;
}

export function assertPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest('user.password_too_short', { min: MIN_PASSWORD_LENGTH });
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest('user.password_too_long', { max: MAX_PASSWORD_LENGTH });
}

export function assertUsername(username: string): void {
  if (username.trim() === '') throw badRequest('user.username_empty');
  if (username.length > MAX_USERNAME_LENGTH) throw badRequest('user.username_too_long', { max: MAX_USERNAME_LENGTH });
}

/** Nobody acts on a user of the same or higher role; root may act on anyone below or equal (the spec's exception). */
export function assertOutranks(actor: Actor, targetRole: number, message: ServerMessageCode = 'user.outranked'): void {
  if (actor.role >= Role.Root) return;
  if (targetRole >= actor.role) throw forbidden(message);
}
