import { z } from 'zod';

/*
 * Inputs of the redemption-code screens, shared by the REST adapter, tRPC and the
 * console form. Numbers may arrive as numeric strings from older consoles and
 * scripts; the messages are new-api's, which existing admins know.
 */

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
const int = (message: string) => z.preprocess(numeric, z.number({ message }).int(message));
const flag = () =>
  z.preprocess(
    (v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : v),
    z.boolean({ message: '参数必须是布尔值' }),
  );

export const REDEMPTION_NAME_MAX = 20;
export const REDEMPTION_BATCH_MAX = 100;
export const REDEMPTION_DEFAULT_QUOTA = 100_000;

export const MSG_NAME_LENGTH = '兑换码名称长度必须在1-20之间';
export const MSG_BATCH_MAX = '一次兑换码批量生成的个数不能大于 100';
export const MSG_VALIDITY = '生效时间必须早于过期时间';

/** Names count characters, not bytes: a Chinese name of 20 characters is fine. */
const name = z
  .string({ message: MSG_NAME_LENGTH })
  .trim()
  .refine((v) => [...v].length >= 1 && [...v].length <= REDEMPTION_NAME_MAX, MSG_NAME_LENGTH);

const quota = int('额度必须是整数').pipe(z.number().min(1, '额度必须大于 0').max(Number.MAX_SAFE_INTEGER));
const maxUses = int('最大使用次数必须是整数').pipe(
  z.number().refine((v) => v === -1 || v >= 1, '最大使用次数必须为 -1（不限）或正整数'),
);
const unixTime = (label: string) => int(`${label}必须是时间戳`).pipe(z.number().min(0, `${label}不能为负数`));

/** Fields an admin sets on create and on a full edit. */
const editable = {
  name,
  quota,
  is_gift: flag().default(false),
  max_uses: maxUses.default(-1),
  valid_from: unixTime('生效时间').default(0),
  valid_until: unixTime('过期时间').default(0),
};

/**
 * Today's new-api console sends the end of validity as `expired_time` (0 = never): the same
 * thing as our `valid_until`, which wins when both are sent. Applied to REST bodies before parsing.
 */
export function expiredTimeAsValidUntil(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  const given = (x: unknown) => x !== undefined && x !== null && x !== '';
  return given(o.expired_time) && !given(o.valid_until) ? { ...o, valid_until: o.expired_time } : o;
}

const windowOk = (v: { valid_from: number; valid_until: number }) =>
  !(v.valid_from > 0 && v.valid_until > 0 && v.valid_from >= v.valid_until);

export const createRedemptionInput = z
  .object({
    ...editable,
    count: int('兑换码个数必须是整数')
      .pipe(z.number().min(1, '兑换码个数必须大于 0').max(REDEMPTION_BATCH_MAX, MSG_BATCH_MAX))
      .default(1),
    /** Optional custom code; blank means "generate one". */
    key: z
      .string()
      .trim()
      .max(64, '自定义兑换码不能超过 64 个字符')
      .regex(/^[\w-]*$/, '自定义兑换码只能包含字母、数字、下划线和连字符')
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .refine(windowOk, { message: MSG_VALIDITY, path: ['valid_until'] })
  .refine((v) => v.key === undefined || v.count === 1, { message: '自定义兑换码一次只能生成一个', path: ['key'] });
export type CreateRedemptionInput = z.infer<typeof createRedemptionInput>;

const id = int('id 无效').pipe(z.number().positive('id 无效'));

export const updateRedemptionInput = z
  .object({ id, ...editable })
  .refine(windowOk, { message: MSG_VALIDITY, path: ['valid_until'] });
export type UpdateRedemptionInput = z.infer<typeof updateRedemptionInput>;

/** Admins switch between unused (1) and disabled (2); "used" (3) is only reached by redeeming. */
export const redemptionStatusInput = z.object({
  id,
  status: int('状态无效').pipe(z.union([z.literal(1), z.literal(2)], { message: '状态无效' })),
});
export type RedemptionStatusInput = z.infer<typeof redemptionStatusInput>;

export const redemptionIdInput = z.object({ id });

export const batchDisableInput = z.object({
  ids: z.array(id, { message: '请至少选择一个兑换码' }).min(1, '请至少选择一个兑换码').max(1000),
});

export const redemptionNameInput = z.object({
  name: z.string({ message: '请输入兑换码名称' }).trim().min(1, '请输入兑换码名称'),
});

export const redemptionListInput = z.object({
  keyword: z.string().trim().max(64).default(''),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(10),
});
export type RedemptionListInput = z.infer<typeof redemptionListInput>;

export const MSG_ENTER_CODE = '请输入兑换码';

/** An empty key is refused by the service, so the answer is exactly "请输入兑换码" on every surface. */
export const redeemInput = z.object({
  key: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ message: MSG_ENTER_CODE }).trim()),
});
