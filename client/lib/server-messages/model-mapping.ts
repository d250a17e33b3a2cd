import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { modelMappingMessages } from '../../../shared/server-messages/model-mapping.ts';

/**
 * Model mapping (server/domains/model-mapping/, shared/schemas/model-mapping.ts): in English. Joined by
 * client/lib/server-messages.ts.
 */
export const modelMappingDescriptors: Record<keyof typeof modelMappingMessages, MessageDescriptor> = {
  'mapping.virtual_required': msg({
    context: 'mapping.virtual_required',
    message: 'The virtual model name cannot be empty',
  }),
  'mapping.virtual_duplicate': msg({
    context: 'mapping.virtual_duplicate',
    message: 'This virtual model name already exists',
  }),
  'mapping.real_required': msg({ context: 'mapping.real_required', message: 'The real model name cannot be empty' }),
  'mapping.real_duplicate': msg({ context: 'mapping.real_duplicate', message: 'A real model is listed twice' }),
  'mapping.at_least_one': msg({ context: 'mapping.at_least_one', message: 'At least one real model is needed' }),
  'mapping.priority': msg({ context: 'mapping.priority', message: 'The priority must be an integer of at least 0' }),
  'mapping.format': msg({ context: 'mapping.format', message: 'Invalid mapping format' }),
};
