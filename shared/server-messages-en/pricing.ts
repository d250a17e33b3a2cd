import type { pricingMessages } from '../server-messages/pricing.ts';

/** Ratios exposed to other gateways (server/domains/pricing/): in English. Joined by shared/server-messages-en.ts. */
export const pricingEnglish: Record<keyof typeof pricingMessages, string> = {
  'ratio.expose_disabled': 'The ratio configuration endpoint is not enabled',
};
