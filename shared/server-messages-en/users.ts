import type { usersMessages } from '../server-messages/users.ts';

/**
 * Users, their own account and their sign-in bindings (server/domains/users/): in English. Joined by shared/server-messages-en.ts.
 */
export const usersEnglish: Record<keyof typeof usersMessages, string> = {
  'user.not_found': 'The user does not exist',
  'user.password_too_short': 'The password must be at least {min} characters long',
  'user.password_too_long': 'The password must be at most {max} characters long',
  'user.username_empty': 'The username cannot be empty',
  'user.username_too_long': 'The username cannot be longer than {max} characters',
  'user.display_name_too_long': 'The display name cannot be longer than {max} characters',
  'user.group_name_too_long': 'The group name is too long',
  'user.username_taken': 'The username is taken, or belonged to a deleted account',
  'user.email_taken': 'The e-mail address is already in use',
  'user.outranked': 'You cannot act on a user of the same or a higher role',
  'user.outranked_read': 'You cannot view a user of the same or a higher role',
  'user.outranked_update': 'You cannot change a user of the same or a higher role',
  'user.outranked_delete': 'You cannot delete a user of the same or a higher role',
  'user.outranked_promote': 'You cannot raise a user to your own role or higher',
  'user.create_outranking': 'You cannot create a user of your own role or higher',
  'user.credentials_required': 'Username and password cannot be empty',
  'user.deleted_no_edit': 'The account has been deleted and cannot be changed',
  'user.deleted_no_enable': 'The account has been deleted and cannot be enabled',
  'user.quota_too_low_to_deduct': 'The user does not have enough quota to deduct {amount}',
  'user.root_no_disable': 'The super administrator cannot be disabled',
  'user.root_no_delete': 'The super administrator cannot be deleted',
  'user.root_no_demote': 'The super administrator cannot be demoted',
  'user.admin_no_promote': 'Only the super administrator can make other users administrators',
  'user.already_admin': 'This user is already an administrator',
  'user.already_common': 'This user is already a common user',
  'user.invalid_action': 'Invalid action',
  'self.wrong_password': 'The current password is wrong',
  'self.confirm_delete': 'Enter your account name to confirm the deletion',
  'self.root_no_delete': 'The super administrator account cannot be deleted',
  'self.settings_saved': 'Settings updated',
  'user.binding_type_invalid': 'Unsupported binding type',
  'oauth.binding_not_found': 'OAuth binding not found',
};
