import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { usersMessages } from '../../../shared/server-messages/users.ts';

/**
 * Users, their own account and their sign-in bindings (server/domains/users/): in English. Joined by
 * client/lib/server-messages.ts.
 */
export const usersDescriptors: Record<keyof typeof usersMessages, MessageDescriptor> = {
  'user.not_found': msg({ context: 'user.not_found', message: 'The user does not exist' }),
  'user.password_too_short': msg({
    context: 'user.password_too_short',
    message: 'The password must be at least {min} characters long',
  }),
  'user.password_too_long': msg({
    context: 'user.password_too_long',
    message: 'The password must be at most {max} characters long',
  }),
  'user.username_empty': msg({ context: 'user.username_empty', message: 'The username cannot be empty' }),
  'user.username_too_long': msg({
    context: 'user.username_too_long',
    message: 'The username cannot be longer than {max} characters',
  }),
  'user.display_name_too_long': msg({
    context: 'user.display_name_too_long',
    message: 'The display name cannot be longer than {max} characters',
  }),
  'user.group_name_too_long': msg({ context: 'user.group_name_too_long', message: 'The group name is too long' }),
  'user.username_taken': msg({
    context: 'user.username_taken',
    message: 'The username is taken, or belonged to a deleted account',
  }),
  'user.email_taken': msg({ context: 'user.email_taken', message: 'The e-mail address is already in use' }),
  'user.outranked': msg({
    context: 'user.outranked',
    message: 'You cannot act on a user of the same or a higher role',
  }),
  'user.outranked_read': msg({
    context: 'user.outranked_read',
    message: 'You cannot view a user of the same or a higher role',
  }),
  'user.outranked_update': msg({
    context: 'user.outranked_update',
    message: 'You cannot change a user of the same or a higher role',
  }),
  'user.outranked_delete': msg({
    context: 'user.outranked_delete',
    message: 'You cannot delete a user of the same or a higher role',
  }),
  'user.outranked_promote': msg({
    context: 'user.outranked_promote',
    message: 'You cannot raise a user to your own role or higher',
  }),
  'user.create_outranking': msg({
    context: 'user.create_outranking',
    message: 'You cannot create a user of your own role or higher',
  }),
  'user.credentials_required': msg({
    context: 'user.credentials_required',
    message: 'Username and password cannot be empty',
  }),
  'user.deleted_no_edit': msg({
    context: 'user.deleted_no_edit',
    message: 'The account has been deleted and cannot be changed',
  }),
  'user.deleted_no_enable': msg({
    context: 'user.deleted_no_enable',
    message: 'The account has been deleted and cannot be enabled',
  }),
  'user.quota_too_low_to_deduct': msg({
    context: 'user.quota_too_low_to_deduct',
    message: 'The user does not have enough quota to deduct {amount}',
  }),
  'user.root_no_disable': msg({
    context: 'user.root_no_disable',
    message: 'The super administrator cannot be disabled',
  }),
  'user.root_no_delete': msg({ context: 'user.root_no_delete', message: 'The super administrator cannot be deleted' }),
  'user.root_no_demote': msg({ context: 'user.root_no_demote', message: 'The super administrator cannot be demoted' }),
  'user.admin_no_promote': msg({
    context: 'user.admin_no_promote',
    message: 'Only the super administrator can make other users administrators',
  }),
  'user.already_admin': msg({ context: 'user.already_admin', message: 'This user is already an administrator' }),
  'user.already_common': msg({ context: 'user.already_common', message: 'This user is already a common user' }),
  'user.invalid_action': msg({ context: 'user.invalid_action', message: 'Invalid action' }),
  'self.wrong_password': msg({ context: 'self.wrong_password', message: 'The current password is wrong' }),
  'self.confirm_delete': msg({
    context: 'self.confirm_delete',
    message: 'Enter your account name to confirm the deletion',
  }),
  'self.root_no_delete': msg({
    context: 'self.root_no_delete',
    message: 'The super administrator account cannot be deleted',
  }),
  'self.settings_saved': msg({ context: 'self.settings_saved', message: 'Settings updated' }),
  'user.binding_type_invalid': msg({ context: 'user.binding_type_invalid', message: 'Unsupported binding type' }),
  'oauth.binding_not_found': msg({ context: 'oauth.binding_not_found', message: 'OAuth binding not found' }),
};
