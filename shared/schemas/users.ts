import { z } from 'zod';
import { MAX_DISPLAY_NAME_LENGTH, MAX_USERNAME_LENGTH } from '../constants.ts';
import { installLanguages } from '../options.ts';

/*
 * Inputs of the account and user calls, shared by the console forms, the tRPC
 * procedures and the REST adapter. They check shape and types; the rules that
 * depend on the database or on options (lengths of passwords included, since
 * "empty means keep" in some calls) are enforced by the users services.
 */

const text = (label: string) => z.string({ message: `${label}必须是字符串` });
const optionalText = (label: string) => text(label).optional();
const int = (label: string) => z.number({ message: `${label}必须是数字` }).int(`${label}必须是整数`);

export const usernameSchema = text('用户名')
  .trim()
  .max(MAX_USERNAME_LENGTH, `用户名长度不能超过 ${MAX_USERNAME_LENGTH} 个字符`);
const displayNameSchema = text('显示名称').max(
  MAX_DISPLAY_NAME_LENGTH,
  `显示名称长度不能超过 ${MAX_DISPLAY_NAME_LENGTH} 个字符`,
);

export const setupInput = z.object({
  username: optionalText('用户名'),
  password: optionalText('密码'),
  confirmPassword: optionalText('确认密码'),
  SelfUseModeEnabled: z.boolean({ message: 'SelfUseModeEnabled 必须是布尔值' }).default(false),
  DemoSiteEnabled: z.boolean({ message: 'DemoSiteEnabled 必须是布尔值' }).default(false),
  /**
   * The install's language (the wizard's console language; ours, not new-api's): option defaults that
   * ship words are stored in it. Absent: the request's Accept-Language, else Chinese.
   */
  language: z.enum(installLanguages).optional(),
  /** The code the server log prints at start; needed unless the wizard is opened on the server itself (ours). */
  setup_code: optionalText('初始化码'),
});
export type SetupInput = z.input<typeof setupInput>;

export const loginInput = z.object({
  username: text('用户名').trim().default(''),
  password: text('密码').default(''),
});
export type LoginInput = z.input<typeof loginInput>;

export const registerInput = z.object({
  username: usernameSchema.default(''),
  password: text('密码').default(''),
  password2: optionalText('确认密码'),
  email: text('邮箱').trim().max(50, '邮箱地址过长').optional(),
  verification_code: optionalText('验证码'),
  aff_code: optionalText('邀请码'),
});
export type RegisterInput = z.input<typeof registerInput>;

export const updateSelfInput = z.object({
  username: usernameSchema.optional(),
  display_name: displayNameSchema.optional(),
  password: optionalText('密码'),
  original_password: optionalText('原密码'),
  /** Today's console saves the user's sidebar layout (a JSON text it reads back from GET /api/user/self). */
  sidebar_modules: z.string().optional(),
});
export type UpdateSelfInput = z.input<typeof updateSelfInput>;

export const deleteSelfInput = z.object({ confirmUsername: text('账户名') });

export const listUsersInput = z.object({
  page: int('页码').default(1),
  pageSize: int('每页条数').default(10),
  keyword: optionalText('关键词'),
  group: optionalText('分组'),
});
export type ListUsersInput = z.input<typeof listUsersInput>;

export const userIdInput = z.object({ id: int('id').positive('id 无效') });

export const createUserInput = z.object({
  username: usernameSchema.default(''),
  password: text('密码').default(''),
  display_name: displayNameSchema.optional(),
  role: int('角色').optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z.object({
  id: int('id').positive('id 无效'),
  username: usernameSchema.optional(),
  display_name: displayNameSchema.optional(),
  password: optionalText('密码'),
  group: text('分组').trim().max(64, '分组名称过长').optional(),
  quota: int('额度').min(0, '额度不能为负数').optional(),
  add_quota: int('增加额度').optional(),
  role: int('角色').optional(),
});
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const manageActions = ['disable', 'enable', 'delete', 'promote', 'demote', 'add_quota'] as const;
/** add_quota's modes (new-api 2026): add to, subtract from, or replace the balance with `value`. */
export const quotaModes = ['add', 'subtract', 'override'] as const;
export const manageUserInput = z
  .object({
    id: int('id').positive('id 无效'),
    action: z.enum(manageActions, { message: '无效的操作' }),
    mode: z.enum(quotaModes, { message: '无效的参数' }).optional(),
    value: int('额度').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action !== 'add_quota') return;
    if (v.mode === undefined) ctx.addIssue({ code: 'custom', message: '无效的参数', path: ['mode'] });
    else if (v.mode === 'override' && (v.value ?? 0) < 0)
      ctx.addIssue({ code: 'custom', message: '额度不能为负数', path: ['value'] });
    else if (v.mode !== 'override' && (v.value ?? 0) <= 0)
      ctx.addIssue({ code: 'custom', message: '额度必须大于 0', path: ['value'] });
  });
export type ManageUserInput = z.infer<typeof manageUserInput>;
