import { z } from 'zod';

/*
 * Inputs of subscription plans (issue 32), shared by the REST adapter, tRPC and the console form.
 * Field names are new-api's (model/subscription.go SubscriptionPlan); numbers may arrive as numeric
 * strings from scripts. Messages are new-api's, which its admins know.
 */

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
const int = (message: string) => z.preprocess(numeric, z.number({ message }).int(message));
const flag = z.preprocess(
  (v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : v),
  z.boolean({ message: '参数错误' }),
);

export const DURATION_UNITS = ['year', 'month', 'day', 'hour', 'custom'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export const RESET_PERIODS = ['never', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type ResetPeriod = (typeof RESET_PERIODS)[number];
/** Which pool a relayed call spends first (new-api's user setting `billing_preference`). */
export const BILLING_PREFERENCES = ['subscription_first', 'wallet_first', 'subscription_only', 'wallet_only'] as const;
export type BillingPreference = (typeof BILLING_PREFERENCES)[number];

/** Unknown or empty values read as new-api reads them: the default. */
export const normalizeBillingPreference = (v: unknown): BillingPreference =>
  (BILLING_PREFERENCES as readonly unknown[]).includes(typeof v === 'string' ? v.trim() : v)
    ? ((v as string).trim() as BillingPreference)
    : 'subscription_first';
const resetPeriod = z.preprocess(
  (v) => (typeof v === 'string' && (RESET_PERIODS as readonly string[]).includes(v.trim()) ? v.trim() : 'never'),
  z.enum(RESET_PERIODS),
);

const nonNegative = (message: string) => int(message).pipe(z.number().min(0, message).max(Number.MAX_SAFE_INTEGER));

/** A plan as an admin writes it: new-api's `{plan: {...}}` body, missing fields at new-api's defaults. */
export const planFields = z.object({
  title: z.string({ message: '套餐标题不能为空' }).trim().min(1, '套餐标题不能为空').max(128),
  subtitle: z.string().max(255).default(''),
  price_amount: z
    .preprocess(numeric, z.number({ message: '参数错误' }))
    .pipe(z.number().min(0, '价格不能为负数').max(9999, '价格不能超过9999'))
    .default(0),
  currency: z.string().max(8).default('USD'),
  duration_unit: z.preprocess((v) => (v === '' || v == null ? 'month' : v), z.enum(DURATION_UNITS)).default('month'),
  duration_value: int('参数错误').default(1),
  custom_seconds: nonNegative('参数错误').default(0),
  enabled: flag.default(true),
  sort_order: int('参数错误').default(0),
  max_purchase_per_user: nonNegative('购买上限不能为负数').default(0),
  upgrade_group: z.string().trim().max(64).default(''),
  total_amount: nonNegative('总额度不能为负数').default(0),
  quota_reset_period: resetPeriod.default('never'),
  quota_reset_custom_seconds: nonNegative('自定义重置周期需大于0秒').default(0),
  stripe_price_id: z.string().max(128).default(''),
  creem_product_id: z.string().max(128).default(''),
});
export type PlanFields = z.infer<typeof planFields>;

export const planBody = z.object({ plan: planFields });
export const planIdInput = z.object({ id: z.number().int().positive() });

/**
 * A plan as Switchyard's own console writes it (issue 39): an empty quota is no longer read as
 * "unlimited" (new-api's default, which sold endless spending for the price of one month), so the
 * console says so explicitly; the service refuses a plan with neither a quota nor this switch.
 */
export const consolePlanFields = planFields.extend({ unlimited_quota: z.boolean().default(false) });
export type ConsolePlanFields = z.infer<typeof consolePlanFields>;
export const updatePlanInput = z.object({ id: z.number().int().positive(), plan: consolePlanFields });
export const planStatusBody = z.object({ enabled: flag });
export const planStatusInput = z.object({ id: z.number().int().positive(), enabled: z.boolean() });

const positiveId = int('参数错误').pipe(z.number().min(1, '参数错误'));
export const bindBody = z.object({ user_id: positiveId, plan_id: positiveId });
export const grantBody = z.object({ plan_id: positiveId });
export const userIdInput = z.object({ userId: z.number().int().positive() });
export const userSubscriptionIdInput = z.object({ id: z.number().int().positive() });

export const preferenceBody = z.object({ billing_preference: z.string().default('') });

/** new-api's Epay methods are the operator's PayMethods types; Switchyard's gateway takes these two. */
export const EPAY_METHODS = ['alipay', 'wxpay', 'zfb', 'wx'] as const;
export const epayPayBody = z.object({
  plan_id: positiveId,
  payment_method: z.string().default(''),
});
export const planPayBody = z.object({ plan_id: positiveId });
