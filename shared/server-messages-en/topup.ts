import type { topupMessages } from '../server-messages/topup.ts';

/** Top-up: online payment and orders (server/domains/topup/): in English. Joined by shared/server-messages-en.ts. */
export const topupEnglish: Record<keyof typeof topupMessages, string> = {
  'topup.disabled': 'The administrator has not turned on online top-up',
  'topup.amount_min': 'The top-up amount cannot be less than {min}',
  'topup.price_too_low': 'The payment amount is too low',
  'topup.amount_not_integer': 'The top-up amount must be an integer',
  'topup.amount_too_large': 'The top-up amount is too large',
  'topup.payment_method': 'Unsupported payment method',
  'topup.provider_unavailable': 'Switchyard does not take {provider} payments; use Epay or a redemption code',
  'topup.trade_no_required': 'No order number given',
  'topup.order_not_found': 'Top-up order not found',
  'topup.order_not_pending': 'The order is not waiting for payment, it cannot be completed',
};
