import type { modelMappingMessages } from '../server-messages/model-mapping.ts';

/**
 * Model mapping (server/domains/model-mapping/, shared/schemas/model-mapping.ts): in English. Joined by shared/server-messages-en.ts.
 */
export const modelMappingEnglish: Record<keyof typeof modelMappingMessages, string> = {
  'mapping.virtual_required': 'The virtual model name cannot be empty',
  'mapping.virtual_duplicate': 'This virtual model name already exists',
  'mapping.real_required': 'The real model name cannot be empty',
  'mapping.real_duplicate': 'A real model is listed twice',
  'mapping.at_least_one': 'At least one real model is needed',
  'mapping.priority': 'The priority must be an integer of at least 0',
  'mapping.format': 'Invalid mapping format',
};
