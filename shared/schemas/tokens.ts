import { z } from 'zod';
import { MAX_TOKEN_NAME_LENGTH, TokenStatus } from '../constants.ts';
import { boolish, intish, splitList } from './common.ts';

/*
 * Token form and API inputs (spec admin-pricing-channels-tokens §3/§9, console-screens
 * §7 Tokens, api-contract §3). Wire names are new-api's.
 */

export const TOKEN_MESSAGES = {
  nameTooLong: '令牌名称过长',
  expiry: '过期时间格式错误',
  quota: '额度不能为负数',
  ip: 'IP 白名单格式错误',
  count: '批量创建数量必须在 1 到 100 之间',
  notFound: '令牌不存在',
  group: '无权使用该分组',
  expired: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  exhausted: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
} as const;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIPv6(v: string): boolean {
  let s = v;
  let groupsNeeded = 8;
  // An embedded IPv4 tail (::ffff:1.2.3.4) stands for two groups.
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.')) {
    if (!IPV4.test(s.slice(lastColon + 1))) return false;
    s = `${s.slice(0, lastColon + 1)}0`;
    groupsNeeded = 7;
  }
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = halves.map((h) => (h === '' ? [] : h.split(':')));
  if (!groups.flat().every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  const count = groups.flat().length;
  return halves.length === 2 ? count < groupsNeeded : count === groupsNeeded;
}

/** An exact IPv4/IPv6 address or a CIDR range (relay.md §2, [beyond]). */
export function isIpOrCidr(entry: string): boolean {
  const [addr, prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(addr);
  if (!v4 && !isIPv6(addr)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

/** One IP or CIDR per line (commas tolerated); normalised to newline-separated. */
const allowIps = z
  .string()
  .nullish()
  .transform((v) => splitList(v ?? '', /[\n,]/))
  .refine((ips) => ips.every(isIpOrCidr), TOKEN_MESSAGES.ip)
  .transform((ips) => ips.join('\n'));

export const tokenFields = z.object({
  name: z
    .string()
    .trim()
    .default('')
    // Characters, not bytes (new-api counts bytes, which allows only 10 Chinese characters).
    .refine((v) => [...v].length <= MAX_TOKEN_NAME_LENGTH, TOKEN_MESSAGES.nameTooLong),
  expired_time: intish(TOKEN_MESSAGES.expiry)
    .refine((v) => v === -1 || v > 0, TOKEN_MESSAGES.expiry)
    .default(-1),
  remain_quota: intish('额度必须是整数').pipe(z.number().min(0, TOKEN_MESSAGES.quota)).default(0),
  unlimited_quota: boolish().default(false),
  model_limits_enabled: boolish().default(false),
  model_limits: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((v) => splitList(v ?? []).join(',')),
  allow_ips: allowIps,
  group: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v ?? ''),
  rate_limit_enabled: boolish().default(false),
  rate_limit_period: intish('限流周期必须是整数').pipe(z.number().min(1, '限流周期至少 1 秒')).default(60),
  rate_limit_count: intish('请求次数必须是整数').pipe(z.number().min(0, '请求次数不能为负数')).default(1000),
  rate_limit_success: intish('成功次数必须是整数').pipe(z.number().min(0, '成功次数不能为负数')).default(10),
});
export type TokenFields = z.infer<typeof tokenFields>;

export const createTokenInput = tokenFields.extend({
  /** Batch creation: the extra tokens get the name plus `-` and a 6-character suffix. */
  count: intish(TOKEN_MESSAGES.count)
    .pipe(z.number().min(1, TOKEN_MESSAGES.count).max(100, TOKEN_MESSAGES.count))
    .default(1),
});
export type CreateTokenInput = z.infer<typeof createTokenInput>;

export const updateTokenInput = tokenFields.extend({
  id: intish('id 无效').pipe(z.number().positive('id 无效')),
});
export type UpdateTokenInput = z.infer<typeof updateTokenInput>;

export const tokenStatusInput = z.object({
  id: intish('id 无效').pipe(z.number().positive('id 无效')),
  status: intish('状态无效').pipe(
    z.union([z.literal(TokenStatus.Enabled), z.literal(TokenStatus.Disabled)], { message: '状态只能是 1 或 2' }),
  ),
});
export type TokenStatusInput = z.infer<typeof tokenStatusInput>;

export const listTokensInput = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(10),
  keyword: z.string().trim().optional(),
  key: z.string().trim().optional(),
});
export type ListTokensInput = z.infer<typeof listTokensInput>;

/** The console shows keys as `sk-…`; searches and pastes may carry the prefix. */
export const stripKeyDecoration = (v: string) => v.trim().replace(/^[sk-]+|[sk-]+$/g, '');
