import { z } from 'zod';

/*
 * Inputs of the wallet: online top-up amounts and payment methods. The amount is
 * whole units (dollars when the site shows money, quota units otherwise), as in
 * new-api; the console floors it at 1.
 */

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);

/** The April 2025 console's names (zfb, wx) and the EasyPay type names today's console sends (alipay, wxpay). */
export const PAYMENT_METHODS = ['zfb', 'wx', 'alipay', 'wxpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const topUpAmountInput = z.object({
  amount: z.preprocess(
    numeric,
    z.number({ message: '充值数量必须是整数' }).int('充值数量必须是整数').max(1e12, '充值数量过大'),
  ),
  /** Accepted for compatibility with new-api consoles; this snapshot does not use it. */
  top_up_code: z.string().optional(),
});
export type TopUpAmountInput = z.infer<typeof topUpAmountInput>;

export const payInput = topUpAmountInput.extend({
  payment_method: z.enum(PAYMENT_METHODS, { message: '不支持的支付方式' }),
});
export type PayInput = z.infer<typeof payInput>;

export const topUpListInput = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(10),
});
