/**
 * Top-up: online payment and orders (server/domains/topup/). Joined with the other areas by shared/server-
 * messages.ts.
 */
export const topupMessages = {
  'topup.disabled': '管理员未开启在线充值',
  'topup.amount_min': '充值数量不能小于 {min}',
  'topup.price_too_low': '充值金额过低',
  'topup.amount_not_integer': '充值数量必须是整数',
  'topup.amount_too_large': '充值数量过大',
  'topup.payment_method': '不支持的支付方式',
  'topup.provider_unavailable': 'Switchyard 未接入 {provider} 支付，请使用易支付或兑换码',
  'topup.trade_no_required': '未提供订单号',
  'topup.order_not_found': '充值订单不存在',
  'topup.order_not_pending': '订单状态不是待支付，无法补单',
} as const;
