import type { billingMessages } from '../server-messages/billing.ts';

/**
 * Billing (server/domains/billing/; also reached through the relay, which words them in the caller's language): in
 * English. Joined by shared/server-messages-en.ts.
 */
export const billingEnglish: Record<keyof typeof billingMessages, string> = {
  'billing.user_quota_insufficient': 'Your quota is not enough',
  'billing.subscription_quota_insufficient': 'Your subscription quota is used up',
  'billing.token_quota_exhausted': 'This token has used up its quota',
  'billing.price_unset': 'No ratio or price is set for model {model}; ask the administrator to set one',
  'billing.request_exceeds_user_quota':
    'This request needs up to {need}, but your account has only {remain} left; lower max_tokens or top up',
  'billing.request_exceeds_token_quota':
    "This request needs up to {need}, but this token has only {remain} left; lower max_tokens or raise the token's quota",
};
