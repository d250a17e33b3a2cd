import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { modelsMessages } from '../../../shared/server-messages/models.ts';

/**
 * Model metadata, vendors and prefill groups, the model marketplace (server/domains/models/): in English. Joined
 * by client/lib/server-messages.ts.
 */
export const modelsDescriptors: Record<keyof typeof modelsMessages, MessageDescriptor> = {
  'model_meta.name_required': msg({ context: 'model_meta.name_required', message: 'The model name cannot be empty' }),
  'model_meta.name_taken': msg({ context: 'model_meta.name_taken', message: 'This model name already exists' }),
  'model_meta.name_too_long': msg({
    context: 'model_meta.name_too_long',
    message: 'The model name cannot be longer than 128 characters',
  }),
  'model_meta.id_missing': msg({ context: 'model_meta.id_missing', message: 'The model ID is missing' }),
  'model_meta.not_found': msg({ context: 'model_meta.not_found', message: 'The model does not exist' }),
  'model_meta.name_rule_invalid': msg({
    context: 'model_meta.name_rule_invalid',
    message: 'The name match type is not valid',
  }),
  'model_meta.endpoints_invalid': msg({
    context: 'model_meta.endpoints_invalid',
    message: 'The endpoints must be a JSON object or array',
  }),
  'model_meta.icon_too_long': msg({
    context: 'model_meta.icon_too_long',
    message: 'The icon cannot be longer than 128 characters',
  }),
  'model_meta.tags_too_long': msg({
    context: 'model_meta.tags_too_long',
    message: 'The tags together cannot be longer than 255 characters',
  }),
  'model_meta.sync_unavailable': msg({
    context: 'model_meta.sync_unavailable',
    message:
      'Syncing model metadata from the official source is not available: Switchyard does not connect to the metadata service new-api hosts. Add models by hand, or create them from "Missing models" in one click',
  }),
  'vendor.name_required': msg({ context: 'vendor.name_required', message: 'The vendor name cannot be empty' }),
  'vendor.name_taken': msg({ context: 'vendor.name_taken', message: 'This vendor name already exists' }),
  'vendor.name_too_long': msg({
    context: 'vendor.name_too_long',
    message: 'The vendor name cannot be longer than 128 characters',
  }),
  'vendor.id_missing': msg({ context: 'vendor.id_missing', message: 'The vendor ID is missing' }),
  'vendor.not_found': msg({ context: 'vendor.not_found', message: 'The vendor does not exist' }),
  'prefill.name_type_required': msg({
    context: 'prefill.name_type_required',
    message: 'The group name and type cannot be empty',
  }),
  'prefill.name_taken': msg({ context: 'prefill.name_taken', message: 'This group name already exists' }),
  'prefill.name_too_long': msg({
    context: 'prefill.name_too_long',
    message: 'The group name cannot be longer than 64 characters',
  }),
  'prefill.id_missing': msg({ context: 'prefill.id_missing', message: 'The group ID is missing' }),
  'prefill.not_found': msg({ context: 'prefill.not_found', message: 'The prefill group does not exist' }),
  'prefill.type_invalid': msg({
    context: 'prefill.type_invalid',
    message: 'The group type must be model, tag or endpoint',
  }),
  'prefill.items_invalid': msg({
    context: 'prefill.items_invalid',
    message: 'The items of a model or tag group must be a list of names',
  }),
};
