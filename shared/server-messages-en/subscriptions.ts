import type { subscriptionsMessages } from '../server-messages/subscriptions.ts';

/**
 * Subscription plans (server/domains/subscriptions/, issue 32): in English. Joined by shared/server-messages-en.ts.
 */
export const subscriptionsEnglish: Record<keyof typeof subscriptionsMessages, string> = {
  'subscription.plan_not_found': 'The plan does not exist',
  'subscription.plan_disabled': 'The plan is not on sale',
  'subscription.purchase_limit': 'You have bought this plan as many times as it allows',
  'subscription.price_too_low': 'The plan costs too little to pay online',
  'subscription.payment_method': 'That payment method does not exist',
  'subscription.not_found': 'The subscription does not exist',
  'subscription.not_active': 'The subscription has already ended',
  'subscription.group_missing': 'The upgrade group does not exist',
  'subscription.custom_duration': 'A custom duration must be more than 0 seconds',
  'subscription.custom_reset': 'A custom reset period must be more than 0 seconds',
  'subscription.balance_short': 'Your balance is not enough',
  'subscription.title_required': 'The plan needs a title',
  'subscription.price_negative': 'The price cannot be negative',
  'subscription.price_max': 'The price cannot be more than 9999',
  'subscription.limit_negative': 'The purchase limit cannot be negative',
  'subscription.total_negative': 'The quota cannot be negative',
  'subscription.quota_required':
    'Enter the quota per period, or turn on “Unlimited quota” if buyers may spend without limit',
  'subscription.provider_unavailable':
    'Switchyard does not take {provider} payments; pay for the plan with Epay or from your balance',
};
