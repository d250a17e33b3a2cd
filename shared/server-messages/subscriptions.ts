/**
 * Subscription plans (server/domains/subscriptions/, issue 32). Joined with the other areas by shared/server-
 * messages.ts.
 */
export const subscriptionsMessages = {
  'subscription.plan_not_found': '套餐不存在',
  'subscription.plan_disabled': '套餐未启用',
  'subscription.purchase_limit': '已达到该套餐购买上限',
  'subscription.price_too_low': '套餐金额过低',
  'subscription.payment_method': '支付方式不存在',
  'subscription.not_found': '订阅不存在',
  'subscription.not_active': '该订阅已失效',
  'subscription.group_missing': '升级分组不存在',
  'subscription.custom_duration': '自定义有效期需大于0秒',
  'subscription.custom_reset': '自定义重置周期需大于0秒',
  'subscription.balance_short': '余额不足',
  'subscription.title_required': '套餐标题不能为空',
  'subscription.price_negative': '价格不能为负数',
  'subscription.price_max': '价格不能超过9999',
  'subscription.limit_negative': '购买上限不能为负数',
  'subscription.total_negative': '总额度不能为负数',
  'subscription.quota_required': '请填写每周期额度，或明确开启“无限额度”',
  'subscription.provider_unavailable': 'Switchyard 未接入 {provider} 支付，请使用易支付或余额购买套餐',
} as const;
