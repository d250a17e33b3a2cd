import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, Role } from '../../../shared/constants.ts';
import type { Infra } from '../../context.ts';
import { badRequest, forbidden } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { StatusService } from '../status/status.service.ts';

/** What every users service is built from. */
export interface UsersDeps extends Infra {
  options: OptionsService;
  status: StatusService;
}

/** The acting user as services need it (the transports' AuthUser fits). */
export interface Actor {
  id: number;
  role: number;
}

export function assertPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`密码长度不得小于 ${MIN_PASSWORD_LENGTH} 位`);
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`密码长度不得超过 ${MAX_PASSWORD_LENGTH} 位`);
}

export function assertUsername(username: string): void {
  if (username.trim() === '') throw badRequest('用户名不能为空');
  if (username.length > MAX_USERNAME_LENGTH) throw badRequest(`用户名长度不能超过 ${MAX_USERNAME_LENGTH} 个字符`);
}

/** Nobody acts on a user of the same or higher role; root may act on anyone below or equal (the spec's exception). */
export function assertOutranks(
  actor: Actor,
  targetRole: number,
  message = '无权操作同权限等级或更高权限等级的用户',
): void {
  if (actor.role >= Role.Root) return;
  if (targetRole >= actor.role) throw forbidden(message);
}

export const USERNAME_TAKEN = '用户名已存在，或已注销';
export const EMAIL_TAKEN = '邮箱地址已被占用';
