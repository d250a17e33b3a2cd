/**
 * Billing (server/domains/billing/; also reached through the relay, which words them in the caller's language).
 * Joined with the other areas by shared/server-messages.ts.
 */
export const billingMessages = {
  'billing.user_quota_insufficient': '用户额度不足',
  'billing.subscription_quota_insufficient': '订阅额度不足',
  'billing.token_quota_exhausted': '该令牌额度已用尽',
  'billing.price_unset': '模型 {model} 的模型倍率或价格未配置，请联系管理员设置',
  // A request whose reservation (its max_tokens upper bound) is larger than what remains (issue 28);
  // {need} and {remain} are amounts of quota as the site shows them (the relay fills them in).
  'billing.request_exceeds_user_quota': '本次请求最多需要 {need}，但账户仅剩 {remain}，请调低 max_tokens 或充值',
  'billing.request_exceeds_token_quota':
    '本次请求最多需要 {need}，但该令牌仅剩 {remain}，请调低 max_tokens 或增加令牌额度',
} as const;
