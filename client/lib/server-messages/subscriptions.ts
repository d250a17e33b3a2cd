import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { subscriptionsMessages } from '../../../shared/server-messages/subscriptions.ts';

/**
 * Subscription plans (server/domains/subscriptions/, issue 32): in English. Joined by client/lib/server-
 * messages.ts.
 */
export const subscriptionsDescriptors: Record<keyof typeof subscriptionsMessages, MessageDescriptor> = {
  'subscription.plan_not_found': msg({
    context: 'subscription.plan_not_found',
    message: 'The plan does not exist',
  }),
  'subscription.plan_disabled': msg({
    context: 'subscription.plan_disabled',
    message: 'The plan is not on sale',
  }),
  'subscription.purchase_limit': msg({
    context: 'subscription.purchase_limit',
    message: 'You have bought this plan as many times as it allows',
  }),
  'subscription.price_too_low': msg({
    context: 'subscription.price_too_low',
    message: 'The plan costs too little to pay online',
  }),
  'subscription.payment_method': msg({
    context: 'subscription.payment_method',
    message: 'That payment method does not exist',
  }),
  'subscription.not_found': msg({
    context: 'subscription.not_found',
    message: 'The subscription does not exist',
  }),
  'subscription.not_active': msg({
    context: 'subscription.not_active',
    message: 'The subscription has already ended',
  }),
  'subscription.group_missing': msg({
    context: 'subscription.group_missing',
    message: 'The upgrade group does not exist',
  }),
  'subscription.custom_duration': msg({
    context: 'subscription.custom_duration',
    message: 'A custom duration must be more than 0 seconds',
  }),
  'subscription.custom_reset': msg({
    context: 'subscription.custom_reset',
    message: 'A custom reset period must be more than 0 seconds',
  }),
  'subscription.balance_short': msg({
    context: 'subscription.balance_short',
    message: 'Your balance is not enough',
  }),
  'subscription.title_required': msg({
    context: 'subscription.title_required',
    message: 'The plan needs a title',
  }),
  'subscription.price_negative': msg({
    context: 'subscription.price_negative',
    message: 'The price cannot be negative',
  }),
  'subscription.price_max': msg({
    context: 'subscription.price_max',
    message: 'The price cannot be more than 9999',
  }),
  'subscription.limit_negative': msg({
    context: 'subscription.limit_negative',
    message: 'The purchase limit cannot be negative',
  }),
  'subscription.total_negative': msg({
    context: 'subscription.total_negative',
    message: 'The quota cannot be negative',
  }),
  'subscription.quota_required': msg({
    context: 'subscription.quota_required',
    message: 'Enter the quota per period, or turn on “Unlimited quota” if buyers may spend without limit',
  }),
  'subscription.provider_unavailable': msg({
    context: 'subscription.provider_unavailable',
    message: 'Switchyard does not take {provider} payments; pay for the plan with Epay or from your balance',
  }),
};
