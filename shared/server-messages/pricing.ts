/**
 * Ratios exposed to other gateways (server/domains/pricing/). Joined with the other areas by shared/server-
 * messages.ts.
 */
export const pricingMessages = {
  'ratio.expose_disabled': '倍率配置接口未启用',
} as const;
