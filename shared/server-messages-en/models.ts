import type { modelsMessages } from '../server-messages/models.ts';

/**
 * Model metadata, vendors and prefill groups, the model marketplace (server/domains/models/): in English. Joined
 * by shared/server-messages-en.ts.
 */
export const modelsEnglish: Record<keyof typeof modelsMessages, string> = {
  'model_meta.name_required': 'The model name cannot be empty',
  'model_meta.name_taken': 'This model name already exists',
  'model_meta.name_too_long': 'The model name cannot be longer than 128 characters',
  'model_meta.id_missing': 'The model ID is missing',
  'model_meta.not_found': 'The model does not exist',
  'model_meta.name_rule_invalid': 'The name match type is not valid',
  'model_meta.endpoints_invalid': 'The endpoints must be a JSON object or array',
  'model_meta.icon_too_long': 'The icon cannot be longer than 128 characters',
  'model_meta.tags_too_long': 'The tags together cannot be longer than 255 characters',
  'model_meta.sync_unavailable':
    'Syncing model metadata from the official source is not available: Switchyard does not connect to the metadata service new-api hosts. Add models by hand, or create them from "Missing models" in one click',
  'vendor.name_required': 'The vendor name cannot be empty',
  'vendor.name_taken': 'This vendor name already exists',
  'vendor.name_too_long': 'The vendor name cannot be longer than 128 characters',
  'vendor.id_missing': 'The vendor ID is missing',
  'vendor.not_found': 'The vendor does not exist',
  'prefill.name_type_required': 'The group name and type cannot be empty',
  'prefill.name_taken': 'This group name already exists',
  'prefill.name_too_long': 'The group name cannot be longer than 64 characters',
  'prefill.id_missing': 'The group ID is missing',
  'prefill.not_found': 'The prefill group does not exist',
  'prefill.type_invalid': 'The group type must be model, tag or endpoint',
  'prefill.items_invalid': 'The items of a model or tag group must be a list of names',
};
