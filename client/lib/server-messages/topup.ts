import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { topupMessages } from '../../../shared/server-messages/topup.ts';

/** Top-up: online payment and orders (server/domains/topup/): in English. Joined by client/lib/server-messages.ts. */
export const topupDescriptors: Record<keyof typeof topupMessages, MessageDescriptor> = {
  'topup.disabled': msg({ context: 'topup.disabled', message: 'The administrator has not turned on online top-up' }),
  'topup.amount_min': msg({ context: 'topup.amount_min', message: 'The top-up amount cannot be less than {min}' }),
  'topup.price_too_low': msg({ context: 'topup.price_too_low', message: 'The payment amount is too low' }),
  'topup.amount_not_integer': msg({
    context: 'topup.amount_not_integer',
    message: 'The top-up amount must be an integer',
  }),
  'topup.amount_too_large': msg({ context: 'topup.amount_too_large', message: 'The top-up amount is too large' }),
  'topup.payment_method': msg({ context: 'topup.payment_method', message: 'Unsupported payment method' }),
  'topup.provider_unavailable': msg({
    context: 'topup.provider_unavailable',
    message: 'Switchyard does not take {provider} payments; use Epay or a redemption code',
  }),
  'topup.trade_no_required': msg({ context: 'topup.trade_no_required', message: 'No order number given' }),
  'topup.order_not_found': msg({ context: 'topup.order_not_found', message: 'Top-up order not found' }),
  'topup.order_not_pending': msg({
    context: 'topup.order_not_pending',
    message: 'The order is not waiting for payment, it cannot be completed',
  }),
};
