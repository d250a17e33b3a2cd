import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { pricingMessages } from '../../../shared/server-messages/pricing.ts';

/** Ratios exposed to other gateways (server/domains/pricing/): in English. Joined by client/lib/server-messages.ts. */
export const pricingDescriptors: Record<keyof typeof pricingMessages, MessageDescriptor> = {
  'ratio.expose_disabled': msg({
    context: 'ratio.expose_disabled',
    message: 'The ratio configuration endpoint is not enabled',
  }),
};
