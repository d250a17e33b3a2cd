import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { billingMessages } from '../../../shared/server-messages/billing.ts';

/**
 * Billing (server/domains/billing/; also reached through the relay, which words them in the caller's language): in
 * English. Joined by client/lib/server-messages.ts.
 */
export const billingDescriptors: Record<keyof typeof billingMessages, MessageDescriptor> = {
  'billing.user_quota_insufficient': msg({
    context: 'billing.user_quota_insufficient',
    message: 'Your quota is not enough',
  }),
  'billing.subscription_quota_insufficient': msg({
    context: 'billing.subscription_quota_insufficient',
    message: 'Your subscription quota is used up',
  }),
  'billing.token_quota_exhausted': msg({
    context: 'billing.token_quota_exhausted',
    message: 'This token has used up its quota',
  }),
  'billing.price_unset': msg({
    context: 'billing.price_unset',
    message: 'No ratio or price is set for model {model}; ask the administrator to set one',
  }),
  'billing.request_exceeds_user_quota': msg({
    context: 'billing.request_exceeds_user_quota',
    message: 'This request needs up to {need}, but your account has only {remain} left; lower max_tokens or top up',
  }),
  'billing.request_exceeds_token_quota': msg({
    context: 'billing.request_exceeds_token_quota',
    message:
      "This request needs up to {need}, but this token has only {remain} left; lower max_tokens or raise the token's quota",
  }),
};
