import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  matchServerText,
  type MessageParams,
  type ServerMessage,
  type ServerMessageCode,
} from '../../shared/server-messages.ts';
import { paramsAsText, type StoredMessage, type StoredNotice } from '../../shared/stored-message.ts';
import { formatQuota, type QuotaDisplay, quotaDisplay } from './format.ts';

/*
 * The server's messages in the console's language (issue 22). The server sends a refusal as a code
 * with parameters (shared/server-messages.ts; tRPC's error `data.messageCode` / `data.messageParams`),
 * or, on the few REST calls the console makes, as new-api's Chinese text, which is recognised by its
 * wording. Its own catalog, `server-messages.po`: English here, Chinese the registry's texts (a unit
 * test keeps both complete). The code is each entry's context, so an English text that a page also
 * uses keeps its own Chinese there.
 */
const descriptors: Record<ServerMessageCode, MessageDescriptor> = {
  'common.not_logged_in': msg({
    context: 'common.not_logged_in',
    message: 'Not logged in or the session has expired, please log in again',
  }),
  'common.forbidden': msg({ context: 'common.forbidden', message: 'You do not have permission to do this' }),
  'common.too_many_requests': msg({
    context: 'common.too_many_requests',
    message: 'Too many requests, please try again later',
  }),
  'common.too_many_requests_ip': msg({
    context: 'common.too_many_requests_ip',
    message: 'Too many requests, please try again later',
  }),
  'common.internal': msg({
    context: 'common.internal',
    message: 'Internal server error, please contact the administrator',
  }),
  'common.invalid_json': msg({
    context: 'common.invalid_json',
    message: 'Invalid parameters: the request body is not valid JSON',
  }),
  'common.body_too_large': msg({ context: 'common.body_too_large', message: 'The request body is too large' }),
  'common.body_over_limit': msg({
    context: 'common.body_over_limit',
    message: 'Request body is larger than the limit of {limit}',
  }),
  'common.bad_params': msg({ context: 'common.bad_params', message: 'Invalid parameters' }),
  'common.invalid_params': msg({ context: 'common.invalid_params', message: 'Invalid parameters' }),
  'common.must_be_number': msg({ context: 'common.must_be_number', message: 'The parameter must be a number' }),
  'common.must_be_integer': msg({ context: 'common.must_be_integer', message: 'The parameter must be an integer' }),
  'common.must_be_boolean': msg({ context: 'common.must_be_boolean', message: 'The parameter must be a boolean' }),
  'common.must_be_string': msg({ context: 'common.must_be_string', message: 'The parameter must be a string' }),
  'common.id_not_number': msg({ context: 'common.id_not_number', message: 'The id must be a number' }),
  'common.id_not_integer': msg({ context: 'common.id_not_integer', message: 'The id must be an integer' }),
  'common.id_invalid': msg({ context: 'common.id_invalid', message: 'Invalid id' }),
  'common.select_at_least_one': msg({ context: 'common.select_at_least_one', message: 'Select at least one item' }),
  'common.status_invalid': msg({ context: 'common.status_invalid', message: 'Invalid status' }),
  'common.date_invalid': msg({ context: 'common.date_invalid', message: 'Invalid date' }),
  'common.database_down': msg({ context: 'common.database_down', message: 'Database connection failed' }),
  'common.field_not_string': msg({ context: 'common.field_not_string', message: '{field} must be a string' }),
  'common.field_not_number': msg({ context: 'common.field_not_number', message: '{field} must be a number' }),
  'common.field_not_integer': msg({ context: 'common.field_not_integer', message: '{field} must be an integer' }),
  'common.field_not_timestamp': msg({ context: 'common.field_not_timestamp', message: '{field} must be a timestamp' }),
  'common.field_negative': msg({ context: 'common.field_negative', message: '{field} cannot be negative' }),
  'common.text': msg({ context: 'common.text', message: '{text}' }),
  'common.body_not_json': msg({
    context: 'common.body_not_json',
    message: 'The request body must be JSON (Content-Type: application/json)',
  }),
  'common.bad_content_length': msg({
    context: 'common.bad_content_length',
    message: 'The Content-Length header does not match the request body',
  }),
  'common.bad_request': msg({
    context: 'common.bad_request',
    message: 'The request could not be processed (HTTP {status})',
  }),
  'net.refused': msg({ context: 'net.refused', message: 'Cannot connect to {target}: connection refused ({address})' }),
  'net.dns': msg({ context: 'net.dns', message: 'Cannot connect to {target}: the host name {host} was not found' }),
  'net.timeout': msg({ context: 'net.timeout', message: 'No answer from {target} in time ({address})' }),
  'net.reset': msg({
    context: 'net.reset',
    message: 'The connection to {target} was closed unexpectedly ({address})',
  }),
  'net.tls': msg({
    context: 'net.tls',
    message: 'Cannot connect securely to {target}: its certificate was not accepted ({address})',
  }),
  'net.unreachable': msg({
    context: 'net.unreachable',
    message: 'Cannot connect to {target}: the network cannot reach it ({address})',
  }),
  'net.bad_address': msg({ context: 'net.bad_address', message: 'The address of {target} is not valid ({address})' }),
  'net.failed': msg({ context: 'net.failed', message: 'The request to {target} failed ({address})' }),
  'net.target.upstream': msg({ context: 'net.target.upstream', message: 'the upstream' }),
  'net.target.release_feed': msg({ context: 'net.target.release_feed', message: 'the release feed' }),
  'net.target.oidc': msg({ context: 'net.target.oidc', message: 'the OIDC provider' }),
  'field.username': msg({ context: 'field.username', message: 'Username' }),
  'field.display_name': msg({ context: 'field.display_name', message: 'Display name' }),
  'field.password': msg({ context: 'field.password', message: 'Password' }),
  'field.confirm_password': msg({ context: 'field.confirm_password', message: 'Password confirmation' }),
  'field.email': msg({ context: 'field.email', message: 'E-mail' }),
  'field.verification_code': msg({ context: 'field.verification_code', message: 'Verification code' }),
  'field.aff_code': msg({ context: 'field.aff_code', message: 'Invitation code' }),
  'field.setup_code': msg({ context: 'field.setup_code', message: 'Setup code' }),
  'field.original_password': msg({ context: 'field.original_password', message: 'Current password' }),
  'field.account_name': msg({ context: 'field.account_name', message: 'Account name' }),
  'field.page': msg({ context: 'field.page', message: 'Page' }),
  'field.page_size': msg({ context: 'field.page_size', message: 'Page size' }),
  'field.keyword': msg({ context: 'field.keyword', message: 'Keyword' }),
  'field.group': msg({ context: 'field.group', message: 'Group' }),
  'field.role': msg({ context: 'field.role', message: 'Role' }),
  'field.quota': msg({ context: 'field.quota', message: 'Quota' }),
  'field.add_quota': msg({ context: 'field.add_quota', message: 'Added quota' }),
  'field.valid_from': msg({ context: 'field.valid_from', message: 'Start time' }),
  'field.valid_until': msg({ context: 'field.valid_until', message: 'Expiry time' }),
  'field.wechat': msg({ context: 'field.wechat', message: 'WeChat' }),
  'group.default_desc': msg({ context: 'group.default_desc', message: 'Default group' }),
  'group.vip_desc': msg({ context: 'group.vip_desc', message: 'VIP group' }),
  'group.own_desc': msg({ context: 'group.own_desc', message: 'Your group' }),
  'quota.points': msg({ context: 'quota.points', message: '{amount} quota points' }),
  'quota.dollars': msg({ context: 'quota.dollars', message: '${amount} of quota' }),
  'quota.dollars_wide': msg({ context: 'quota.dollars_wide', message: '${amount} of quota' }),
  'quota.plain': msg({ context: 'quota.plain', message: '{amount} quota' }),
  'auth.no_access_token': msg({ context: 'auth.no_access_token', message: 'Not logged in and no access token given' }),
  'auth.invalid_access_token': msg({ context: 'auth.invalid_access_token', message: 'Invalid access token' }),
  'auth.no_user_header': msg({
    context: 'auth.no_user_header',
    message: 'Not allowed: the New-Api-User header is missing',
  }),
  'auth.user_header_mismatch': msg({
    context: 'auth.user_header_mismatch',
    message: 'Not allowed: New-Api-User does not match the signed-in user',
  }),
  'auth.user_banned': msg({ context: 'auth.user_banned', message: 'This user has been banned' }),
  'auth.user_deleted': msg({ context: 'auth.user_deleted', message: 'This account has been deleted' }),
  'setup.done': msg({ context: 'setup.done', message: 'The system has already been set up' }),
  'setup.ok': msg({ context: 'setup.ok', message: 'The system has been set up' }),
  'setup.flag_not_boolean': msg({ context: 'setup.flag_not_boolean', message: '{flag} must be a boolean' }),
  'setup.code_required': msg({
    context: 'setup.code_required',
    message:
      'Enter the setup code: it is printed in the server log at start (not needed when opened on the server itself)',
  }),
  'setup.code_wrong': msg({
    context: 'setup.code_wrong',
    message: 'Wrong setup code: use the one printed in the server log at start',
  }),
  'login.wrong_credentials': msg({
    context: 'login.wrong_credentials',
    message: 'Wrong username or password, or the user has been banned',
  }),
  'login.password_disabled': msg({
    context: 'login.password_disabled',
    message: 'The administrator has turned off password login; log in with a third-party account',
  }),
  'login.enter_credentials': msg({ context: 'login.enter_credentials', message: 'Enter your username and password' }),
  'login.too_many_attempts': msg({
    context: 'login.too_many_attempts',
    message: 'Too many attempts, try again in {minutes} min',
  }),
  'register.disabled': msg({
    context: 'register.disabled',
    message: 'The administrator has closed registration of new users',
  }),
  'register.password_disabled': msg({
    context: 'register.password_disabled',
    message: 'The administrator has turned off registration with a password; register with a third-party account',
  }),
  'register.passwords_differ': msg({ context: 'register.passwords_differ', message: 'The two passwords do not match' }),
  'register.email_format': msg({ context: 'register.email_format', message: 'The e-mail address is not valid' }),
  'register.email_too_long': msg({ context: 'register.email_too_long', message: 'The e-mail address is too long' }),
  'register.email_verification_required': msg({
    context: 'register.email_verification_required',
    message: 'E-mail verification is on: enter your e-mail address and the verification code',
  }),
  'verify.turnstile_empty': msg({ context: 'verify.turnstile_empty', message: 'The Turnstile token is empty' }),
  'verify.turnstile_failed': msg({
    context: 'verify.turnstile_failed',
    message: 'Turnstile verification failed, please refresh and try again',
  }),
  'verify.code_wrong': msg({ context: 'verify.code_wrong', message: 'The verification code is wrong or has expired' }),
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
  'common.quota_negative': msg({ context: 'common.quota_negative', message: 'The quota cannot be negative' }),
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
  'oauth.provider_disabled': msg({
    context: 'oauth.provider_disabled',
    message: 'The administrator has not turned on login and registration with {provider}',
  }),
  'oauth.account_bound': msg({
    context: 'oauth.account_bound',
    message: 'This {provider} account is already bound to another user',
  }),
  'oauth.telegram_unbound': msg({
    context: 'oauth.telegram_unbound',
    message: 'This Telegram account is not bound; bind it in your personal settings first',
  }),
  'oauth.register_failed': msg({ context: 'oauth.register_failed', message: 'Registration failed' }),
  'oauth.state_mismatch': msg({
    context: 'oauth.state_mismatch',
    message: 'The login state is missing or does not match; please start the login again',
  }),
  'oauth.server_unreachable': msg({
    context: 'oauth.server_unreachable',
    message: 'Could not reach the {provider} server, please try again later',
  }),
  'oauth.server_error': msg({
    context: 'oauth.server_error',
    message: 'The {provider} server answered with an error (HTTP {status})',
  }),
  'oauth.github_failed': msg({ context: 'oauth.github_failed', message: 'GitHub authorization failed: {reason}' }),
  'oauth.linuxdo_failed': msg({ context: 'oauth.linuxdo_failed', message: 'Linux DO authorization failed: {reason}' }),
  'oauth.invalid_code': msg({ context: 'oauth.invalid_code', message: 'invalid code' }),
  'oauth.linuxdo_inactive': msg({
    context: 'oauth.linuxdo_inactive',
    message: 'The Linux DO account is not active or has been silenced',
  }),
  'oauth.linuxdo_trust_level': msg({
    context: 'oauth.linuxdo_trust_level',
    message: 'The Linux DO trust level is below the minimum the administrator set',
  }),
  'oauth.oidc_discovery_failed': msg({
    context: 'oauth.oidc_discovery_failed',
    message: 'Could not get the OIDC configuration, check the Well-Known URL',
  }),
  'oauth.oidc_failed': msg({ context: 'oauth.oidc_failed', message: 'OIDC authorization failed, please try again' }),
  'oauth.oidc_userinfo_failed': msg({
    context: 'oauth.oidc_userinfo_failed',
    message: 'Could not get the OIDC user information',
  }),
  'oauth.oidc_no_sub': msg({ context: 'oauth.oidc_no_sub', message: 'The OIDC user information has no sub' }),
  'oauth.telegram_unconfigured': msg({
    context: 'oauth.telegram_unconfigured',
    message: 'The administrator has not configured a Telegram bot',
  }),
  'oauth.telegram_failed': msg({ context: 'oauth.telegram_failed', message: 'Telegram verification failed' }),
  'oauth.telegram_expired': msg({
    context: 'oauth.telegram_expired',
    message: 'The Telegram login has expired, please log in again',
  }),
  'oauth.telegram_bad_id': msg({ context: 'oauth.telegram_bad_id', message: 'Invalid Telegram id' }),
  'oauth.telegram_bad_auth_date': msg({ context: 'oauth.telegram_bad_auth_date', message: 'Invalid auth_date' }),
  'oauth.telegram_bad_hash': msg({ context: 'oauth.telegram_bad_hash', message: 'Invalid hash' }),
  'oauth.wechat_unconfigured': msg({
    context: 'oauth.wechat_unconfigured',
    message: 'The administrator has not configured the WeChat server address',
  }),
  'mail.smtp_unconfigured': msg({ context: 'mail.smtp_unconfigured', message: 'The SMTP server is not configured' }),
  'mail.send_failed': msg({
    context: 'mail.send_failed',
    message: 'Sending the e-mail failed; check the SMTP settings or contact the administrator',
  }),
  'mail.too_frequent': msg({ context: 'mail.too_frequent', message: 'Sent too often, please try again in 30 seconds' }),
  'mail.enter_email': msg({ context: 'mail.enter_email', message: 'Enter your e-mail address' }),
  'mail.enter_code': msg({ context: 'mail.enter_code', message: 'Enter the verification code' }),
  'mail.invalid_address': msg({ context: 'mail.invalid_address', message: 'Invalid e-mail address' }),
  'mail.domain_not_allowed': msg({
    context: 'mail.domain_not_allowed',
    message: 'The administrator allows only some e-mail domains, and yours is not one of them',
  }),
  'mail.alias_not_allowed': msg({
    context: 'mail.alias_not_allowed',
    message:
      'The administrator does not allow e-mail aliases; your address was refused because it contains special characters',
  }),
  'mail.reset_link_invalid': msg({
    context: 'mail.reset_link_invalid',
    message: 'The reset link is invalid or has expired',
  }),
  'mail.code_sent': msg({ context: 'mail.code_sent', message: 'Verification code sent, check your mailbox' }),
  'mail.reset_sent': msg({ context: 'mail.reset_sent', message: 'Reset e-mail sent, check your mailbox' }),
  'mail.bound': msg({ context: 'mail.bound', message: 'E-mail bound' }),
  'passkey.disabled': msg({
    context: 'passkey.disabled',
    message: 'The administrator has not turned on passkey sign-in',
  }),
  'passkey.not_registered': msg({ context: 'passkey.not_registered', message: 'This user has no passkey' }),
  'passkey.challenge_missing': msg({
    context: 'passkey.challenge_missing',
    message: 'The passkey check expired or was not started, please try again',
  }),
  'passkey.verify_failed': msg({
    context: 'passkey.verify_failed',
    message: 'The passkey could not be verified; try again or contact the administrator',
  }),
  'passkey.https_required': msg({
    context: 'passkey.https_required',
    message: 'Passkeys need HTTPS: {origin} is not a secure origin',
  }),
  'passkey.insecure_origin': msg({
    context: 'passkey.insecure_origin',
    message: 'Passkeys do not allow an insecure origin: {origin}',
  }),
  'passkey.registered': msg({ context: 'passkey.registered', message: 'Passkey registered' }),
  'passkey.verified': msg({ context: 'passkey.verified', message: 'Passkey verified' }),
  'passkey.removed': msg({ context: 'passkey.removed', message: 'Passkey removed' }),
  'passkey.reset': msg({ context: 'passkey.reset', message: 'Passkey reset' }),
  'twofa.require_code': msg({ context: 'twofa.require_code', message: 'Enter your two-factor code' }),
  'twofa.session_expired': msg({
    context: 'twofa.session_expired',
    message: 'The sign-in has expired, please log in again',
  }),
  'twofa.already_enabled': msg({
    context: 'twofa.already_enabled',
    message: 'Two-factor authentication is already on; turn it off before setting it up again',
  }),
  'twofa.setup_first': msg({ context: 'twofa.setup_first', message: 'Set up two-factor authentication first' }),
  'twofa.enabled_already': msg({
    context: 'twofa.enabled_already',
    message: 'Two-factor authentication is already on',
  }),
  'twofa.not_enabled': msg({
    context: 'twofa.not_enabled',
    message: 'Two-factor authentication is not on for this user',
  }),
  'twofa.wrong_code': msg({
    context: 'twofa.wrong_code',
    message: 'Wrong verification or backup code, please try again',
  }),
  'twofa.code_reused': msg({
    context: 'twofa.code_reused',
    message: 'This code was already used; wait for the next one in your authenticator app',
  }),
  'twofa.code_format': msg({ context: 'twofa.code_format', message: 'The verification code must be 6 digits' }),
  'twofa.locked': msg({ context: 'twofa.locked', message: 'Too many wrong codes, try again in {minutes} min' }),
  'twofa.setup_started': msg({
    context: 'twofa.setup_started',
    message: 'Setup started: scan the QR code with your authenticator app and enter the code it shows',
  }),
  'twofa.enabled': msg({ context: 'twofa.enabled', message: 'Two-factor authentication is on' }),
  'twofa.disabled': msg({ context: 'twofa.disabled', message: 'Two-factor authentication is off' }),
  'twofa.codes_regenerated': msg({ context: 'twofa.codes_regenerated', message: 'New backup codes generated' }),
  'twofa.admin_disabled': msg({
    context: 'twofa.admin_disabled',
    message: "The user's two-factor authentication was turned off",
  }),
  'twofa.outranked': msg({
    context: 'twofa.outranked',
    message: 'You cannot change the two-factor settings of a user of the same or a higher role',
  }),
  'verify.success': msg({ context: 'verify.success', message: 'Verified' }),
  'verify.method_unsupported': msg({
    context: 'verify.method_unsupported',
    message: 'Unsupported verification method: {method}',
  }),
  'verify.code_required': msg({ context: 'verify.code_required', message: 'Enter the verification code' }),
  'verify.session_required': msg({
    context: 'verify.session_required',
    message: 'Verification needs a console session (not an access token)',
  }),
  'verify.required': msg({ context: 'verify.required', message: 'Verify it is you first' }),
  'channel.key_revealed': msg({ context: 'channel.key_revealed', message: 'Key fetched' }),
  'token.name_too_long': msg({ context: 'token.name_too_long', message: 'The token name is too long' }),
  'token.expiry_invalid': msg({ context: 'token.expiry_invalid', message: 'Invalid expiry time' }),
  'token.ip_list_invalid': msg({ context: 'token.ip_list_invalid', message: 'Invalid IP allow-list' }),
  'token.count_range': msg({
    context: 'token.count_range',
    message: 'The number of tokens to create must be between 1 and 100',
  }),
  'token.not_found': msg({ context: 'token.not_found', message: 'The token does not exist' }),
  'token.group_forbidden': msg({ context: 'token.group_forbidden', message: 'You may not use this group' }),
  'token.expired_cannot_enable': msg({
    context: 'token.expired_cannot_enable',
    message: 'The token has expired and cannot be enabled; change its expiry time first, or make it never expire',
  }),
  'token.exhausted_cannot_enable': msg({
    context: 'token.exhausted_cannot_enable',
    message:
      'The token has used up its quota and cannot be enabled; change its remaining quota first, or make it unlimited',
  }),
  'common.quota_not_integer': msg({ context: 'common.quota_not_integer', message: 'The quota must be an integer' }),
  'token.period_not_integer': msg({
    context: 'token.period_not_integer',
    message: 'The rate-limit period must be an integer',
  }),
  'token.period_min': msg({ context: 'token.period_min', message: 'The rate-limit period is at least 1 second' }),
  'token.count_not_integer': msg({
    context: 'token.count_not_integer',
    message: 'The request count must be an integer',
  }),
  'token.count_negative': msg({ context: 'token.count_negative', message: 'The request count cannot be negative' }),
  'token.success_not_integer': msg({
    context: 'token.success_not_integer',
    message: 'The success count must be an integer',
  }),
  'token.success_negative': msg({ context: 'token.success_negative', message: 'The success count cannot be negative' }),
  'token.status_one_or_two': msg({ context: 'token.status_one_or_two', message: 'The status can only be 1 or 2' }),
  'token.generate_failed': msg({
    context: 'token.generate_failed',
    message: 'Generating the token failed, please try again',
  }),
  'billing.user_quota_insufficient': msg({
    context: 'billing.user_quota_insufficient',
    message: 'Your quota is not enough',
  }),
  'billing.subscription_quota_insufficient': msg({
    context: 'billing.subscription_quota_insufficient',
    message: 'Your subscription quota is used up',
  }),
  'billing.token_quota_exhausted': msg({
    context: 'billing.token_quota_exhausted',
    message: 'This token has used up its quota',
  }),
  'billing.price_unset': msg({
    context: 'billing.price_unset',
    message: 'No ratio or price is set for model {model}; ask the administrator to set one',
  }),
  'billing.request_exceeds_user_quota': msg({
    context: 'billing.request_exceeds_user_quota',
    message: 'This request needs up to {need}, but your account has only {remain} left; lower max_tokens or top up',
  }),
  'billing.request_exceeds_token_quota': msg({
    context: 'billing.request_exceeds_token_quota',
    message:
      "This request needs up to {need}, but this token has only {remain} left; lower max_tokens or raise the token's quota",
  }),
  'redeem.enter_code': msg({ context: 'redeem.enter_code', message: 'Enter the redemption code' }),
  'redeem.invalid': msg({ context: 'redeem.invalid', message: 'Invalid redemption code' }),
  'redeem.used': msg({ context: 'redeem.used', message: 'This redemption code has already been used' }),
  'redeem.gift_already_used': msg({
    context: 'redeem.gift_already_used',
    message: 'You have already used this redemption code',
  }),
  'redeem.too_many_guesses': msg({
    context: 'redeem.too_many_guesses',
    message: 'Too many wrong redemption codes, please try again later',
  }),
  'redeem.not_yet_valid': msg({ context: 'redeem.not_yet_valid', message: 'This redemption code is not valid yet' }),
  'redeem.expired': msg({ context: 'redeem.expired', message: 'This redemption code has expired' }),
  'redemption.not_found': msg({ context: 'redemption.not_found', message: 'The redemption code does not exist' }),
  'redemption.key_taken': msg({ context: 'redemption.key_taken', message: 'This redemption code already exists' }),
  'redemption.edit_unused_only': msg({
    context: 'redemption.edit_unused_only',
    message: 'Only unused redemption codes can be edited',
  }),
  'redemption.used_no_status': msg({
    context: 'redemption.used_no_status',
    message: 'This redemption code has been used; its status cannot change',
  }),
  'redemption.name_length': msg({
    context: 'redemption.name_length',
    message: 'The name must be 1 to 20 characters long',
  }),
  'redemption.batch_max': msg({
    context: 'redemption.batch_max',
    message: 'At most 100 redemption codes can be generated at once',
  }),
  'redemption.validity_order': msg({
    context: 'redemption.validity_order',
    message: 'The start time must be earlier than the expiry time',
  }),
  'redemption.quota_positive': msg({
    context: 'redemption.quota_positive',
    message: 'The quota must be greater than 0',
  }),
  'redemption.max_uses_not_integer': msg({
    context: 'redemption.max_uses_not_integer',
    message: 'The maximum number of uses must be an integer',
  }),
  'redemption.max_uses_range': msg({
    context: 'redemption.max_uses_range',
    message: 'The maximum number of uses must be -1 (unlimited) or a positive integer',
  }),
  'redemption.count_not_integer': msg({
    context: 'redemption.count_not_integer',
    message: 'The number of codes must be an integer',
  }),
  'redemption.count_positive': msg({
    context: 'redemption.count_positive',
    message: 'The number of codes must be greater than 0',
  }),
  'redemption.key_too_long': msg({
    context: 'redemption.key_too_long',
    message: 'A custom code cannot be longer than 64 characters',
  }),
  'redemption.key_charset': msg({
    context: 'redemption.key_charset',
    message: 'A custom code may contain only letters, digits, underscores and hyphens',
  }),
  'redemption.key_single': msg({
    context: 'redemption.key_single',
    message: 'A custom code can only be generated one at a time',
  }),
  'redemption.select_one': msg({ context: 'redemption.select_one', message: 'Select at least one redemption code' }),
  'redemption.enter_name': msg({ context: 'redemption.enter_name', message: 'Enter the name of the redemption code' }),
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
  'subscription.plan_not_found': msg({
    context: 'subscription.plan_not_found',
    message: 'The plan does not exist',
  }),
  'subscription.plan_disabled': msg({
    context: 'subscription.plan_disabled',
    message: 'The plan is not on sale',
  }),
  'subscription.purchase_limit': msg({
    context: 'subscription.purchase_limit',
    message: 'You have bought this plan as many times as it allows',
  }),
  'subscription.price_too_low': msg({
    context: 'subscription.price_too_low',
    message: 'The plan costs too little to pay online',
  }),
  'subscription.payment_method': msg({
    context: 'subscription.payment_method',
    message: 'That payment method does not exist',
  }),
  'subscription.not_found': msg({
    context: 'subscription.not_found',
    message: 'The subscription does not exist',
  }),
  'subscription.not_active': msg({
    context: 'subscription.not_active',
    message: 'The subscription has already ended',
  }),
  'subscription.group_missing': msg({
    context: 'subscription.group_missing',
    message: 'The upgrade group does not exist',
  }),
  'subscription.custom_duration': msg({
    context: 'subscription.custom_duration',
    message: 'A custom duration must be more than 0 seconds',
  }),
  'subscription.custom_reset': msg({
    context: 'subscription.custom_reset',
    message: 'A custom reset period must be more than 0 seconds',
  }),
  'subscription.balance_short': msg({
    context: 'subscription.balance_short',
    message: 'Your balance is not enough',
  }),
  'subscription.title_required': msg({
    context: 'subscription.title_required',
    message: 'The plan needs a title',
  }),
  'subscription.price_negative': msg({
    context: 'subscription.price_negative',
    message: 'The price cannot be negative',
  }),
  'subscription.price_max': msg({
    context: 'subscription.price_max',
    message: 'The price cannot be more than 9999',
  }),
  'subscription.limit_negative': msg({
    context: 'subscription.limit_negative',
    message: 'The purchase limit cannot be negative',
  }),
  'subscription.total_negative': msg({
    context: 'subscription.total_negative',
    message: 'The quota cannot be negative',
  }),
  'subscription.quota_required': msg({
    context: 'subscription.quota_required',
    message: 'Enter the quota per period, or turn on “Unlimited quota” if buyers may spend without limit',
  }),
  'subscription.provider_unavailable': msg({
    context: 'subscription.provider_unavailable',
    message: 'Switchyard does not take {provider} payments; pay for the plan with Epay or from your balance',
  }),
  'compat.codex_unavailable': msg({
    context: 'compat.codex_unavailable',
    message: 'Switchyard does not support Codex OAuth channel credentials; use an API key',
  }),
  'compat.ollama_unavailable': msg({
    context: 'compat.ollama_unavailable',
    message: 'Switchyard does not manage models on an Ollama server; pull or delete them on Ollama itself',
  }),
  'compat.upstream_updates_unavailable': msg({
    context: 'compat.upstream_updates_unavailable',
    message: 'Detecting upstream model updates is not supported; use “Fetch models” when editing the channel',
  }),
  'compat.external_login_unavailable': msg({
    context: 'compat.external_login_unavailable',
    message: 'Switchyard does not support JWT or header sign-in for custom OAuth providers',
  }),
  'ratio.expose_disabled': msg({
    context: 'ratio.expose_disabled',
    message: 'The ratio configuration endpoint is not enabled',
  }),
  'aff.transfer_min': msg({ context: 'aff.transfer_min', message: 'The smallest transfer is {amount}' }),
  'aff.quota_insufficient': msg({ context: 'aff.quota_insufficient', message: 'Not enough invitation quota' }),
  'aff.amount_not_integer': msg({
    context: 'aff.amount_not_integer',
    message: 'The amount to transfer must be an integer',
  }),
  'aff.transferred': msg({ context: 'aff.transferred', message: 'Transferred' }),
  'checkin.disabled': msg({ context: 'checkin.disabled', message: 'Check-in is not turned on' }),
  'checkin.already': msg({
    context: 'checkin.already',
    message: 'You have already checked in today, come back tomorrow',
  }),
  'checkin.done': msg({ context: 'checkin.done', message: 'Checked in' }),
  'option.compliance_key': msg({
    context: 'option.compliance_key',
    message: 'The compliance confirmation cannot be changed through the general settings call',
  }),
  'option.compliance_confirm': msg({
    context: 'option.compliance_confirm',
    message: 'Please confirm the compliance statement',
  }),
  'option.no_disk_cache': msg({
    context: 'option.no_disk_cache',
    message: 'Switchyard uses no disk cache: request bodies are relayed in memory, there is nothing to turn on',
  }),
  'option.no_load_shedding': msg({
    context: 'option.no_load_shedding',
    message: 'Switchyard does not refuse requests by CPU, memory or disk use: use the per-IP and per-model rate limits',
  }),
  'feature.deployments_unavailable': msg({
    context: 'feature.deployments_unavailable',
    message: 'Switchyard does not connect to io.net model deployments (a service hosted by new-api)',
  }),
  'feature.ratio_sync_unavailable': msg({
    context: 'feature.ratio_sync_unavailable',
    message:
      'Switchyard does not sync ratios from other gateways: edit them in the ratio settings, or publish yours for other gateways to pull',
  }),
  'feature.custom_oauth_unavailable': msg({
    context: 'feature.custom_oauth_unavailable',
    message: 'Switchyard has no custom OAuth providers: set up OIDC sign-in in the system settings',
  }),
  'feature.gc_unavailable': msg({
    context: 'feature.gc_unavailable',
    message: 'Manual garbage collection is not available in this process',
  }),
  'topup.trade_no_required': msg({ context: 'topup.trade_no_required', message: 'No order number given' }),
  'topup.order_not_found': msg({ context: 'topup.order_not_found', message: 'Top-up order not found' }),
  'topup.order_not_pending': msg({
    context: 'topup.order_not_pending',
    message: 'The order is not waiting for payment, it cannot be completed',
  }),
  'affinity.clear_needs_param': msg({
    context: 'affinity.clear_needs_param',
    message: 'Missing parameter: rule_name, or all=true to clear everything',
  }),
  'affinity.key_fp_required': msg({ context: 'affinity.key_fp_required', message: 'Missing parameter: key_fp' }),
  'user.binding_type_invalid': msg({ context: 'user.binding_type_invalid', message: 'Unsupported binding type' }),
  'oauth.binding_not_found': msg({ context: 'oauth.binding_not_found', message: 'OAuth binding not found' }),
  'channel.not_found': msg({
    context: 'channel.not_found',
    message: 'The channel does not exist, refresh and try again',
  }),
  'channel.name_and_key': msg({ context: 'channel.name_and_key', message: 'Enter the channel name and key' }),
  'channel.no_model': msg({ context: 'channel.no_model', message: 'Select at least one model' }),
  'channel.model_mapping_json': msg({
    context: 'channel.model_mapping_json',
    message: 'The model mapping must be valid JSON',
  }),
  'channel.status_code_mapping_json': msg({
    context: 'channel.status_code_mapping_json',
    message: 'The status code mapping must be valid JSON',
  }),
  'channel.setting_json': msg({
    context: 'channel.setting_json',
    message: 'The extra channel settings must be valid JSON',
  }),
  'channel.auto_cache_control': msg({
    context: 'channel.auto_cache_control',
    message: 'auto_cache_control in the extra channel settings must be true or false',
  }),
  'channel.param_override_json': msg({
    context: 'channel.param_override_json',
    message: 'The parameter override must be valid JSON',
  }),
  'channel.vertex_other_json': msg({
    context: 'channel.vertex_other_json',
    message: 'The deployment regions must be valid JSON',
  }),
  'channel.priority_min': msg({ context: 'channel.priority_min', message: 'The priority cannot be less than -999' }),
  'channel.priority_not_integer': msg({
    context: 'channel.priority_not_integer',
    message: 'The priority must be an integer',
  }),
  'channel.weight_not_integer': msg({
    context: 'channel.weight_not_integer',
    message: 'The weight must be an integer',
  }),
  'channel.weight_negative': msg({
    context: 'channel.weight_negative',
    message: 'The weight must be a non-negative integer',
  }),
  'channel.model_name_too_long': msg({
    context: 'channel.model_name_too_long',
    message: 'A model name is too long (at most 255 characters)',
  }),
  'channel.name_too_long': msg({ context: 'channel.name_too_long', message: 'The channel name is too long' }),
  'channel.type_invalid': msg({ context: 'channel.type_invalid', message: 'Invalid channel type' }),
  'channel.enter_key': msg({ context: 'channel.enter_key', message: 'Enter the key' }),
  'channel.enter_base_url': msg({ context: 'channel.enter_base_url', message: 'Enter the channel base URL' }),
  'channel.base_url_invalid': msg({
    context: 'channel.base_url_invalid',
    message: 'The base URL must start with http:// or https://, for example https://api.example.com',
  }),
  'channel.enter_tag': msg({ context: 'channel.enter_tag', message: 'Enter the tag' }),
  'channel.select_first': msg({ context: 'channel.select_first', message: 'Select channels first' }),
  'channel.tag_not_found': msg({ context: 'channel.tag_not_found', message: 'The tag does not exist' }),
  'channel.no_changes': msg({ context: 'channel.no_changes', message: 'Nothing was changed' }),
  'channel.no_test_model': msg({ context: 'channel.no_test_model', message: 'This channel has no model to test with' }),
  'channel.untestable': msg({ context: 'channel.untestable', message: 'Channels of this type cannot be tested yet' }),
  'channel.test_running': msg({
    context: 'channel.test_running',
    message: 'A channel test is already running, please try again later',
  }),
  'channel.test_too_slow': msg({
    context: 'channel.test_too_slow',
    message: 'Response time {seconds}s is over the threshold of {threshold}s',
  }),
  'channel.test_build_failed': msg({
    context: 'channel.test_build_failed',
    message: 'Could not build the upstream request: {reason}',
  }),
  'channel.balance_unsupported': msg({
    context: 'channel.balance_unsupported',
    message: 'Balance queries are not supported for this channel type',
  }),
  'channel.balance_unreadable': msg({
    context: 'channel.balance_unreadable',
    message: 'The balance the upstream returned could not be read',
  }),
  'channel.models_failed': msg({
    context: 'channel.models_failed',
    message: 'Fetching the model list failed: {reason}',
  }),
  'channel.upstream_status': msg({
    context: 'channel.upstream_status',
    message: 'The upstream answered HTTP {status}',
  }),
  'channel.upstream_status_detail': msg({
    context: 'channel.upstream_status_detail',
    message: 'The upstream answered HTTP {status}: {detail}',
  }),
  'channel.upstream_unreachable': msg({
    context: 'channel.upstream_unreachable',
    message: 'The request to the upstream failed: {reason}',
  }),
  'channel.not_multi_key': msg({
    context: 'channel.not_multi_key',
    message: 'This channel does not hold several keys',
  }),
  'channel.key_index_missing': msg({ context: 'channel.key_index_missing', message: 'No key index was given' }),
  'channel.key_index_out_of_range': msg({
    context: 'channel.key_index_out_of_range',
    message: 'The key index is out of range',
  }),
  'channel.no_key_to_disable': msg({
    context: 'channel.no_key_to_disable',
    message: 'There is no enabled key to disable',
  }),
  'channel.no_auto_disabled_key': msg({
    context: 'channel.no_auto_disabled_key',
    message: 'There is no automatically disabled key to delete',
  }),
  'channel.last_key': msg({ context: 'channel.last_key', message: 'The last key cannot be deleted' }),
  'channel.unsupported_action': msg({ context: 'channel.unsupported_action', message: 'Unsupported action' }),
  'channel.keys_changed': msg({
    context: 'channel.keys_changed',
    message: "The channel's keys were changed meanwhile, please refresh and try again",
  }),
  'channel.all_keys_disabled': msg({
    context: 'channel.all_keys_disabled',
    message: 'Every key was disabled automatically; the last one because: {reason}',
  }),
  'demo.disabled': msg({ context: 'demo.disabled', message: 'The demo channel is not turned on (DEMO_CHANNEL)' }),
  'notice.channel_disabled_title': msg({
    context: 'notice.channel_disabled_title',
    message: 'Channel {name} (#{id}) was disabled automatically',
  }),
  'notice.channel_disabled': msg({
    context: 'notice.channel_disabled',
    message: 'Channel **{name}** (#{id}) was disabled automatically at {time}.\n\nReason: {reason}',
  }),
  'notice.update_title': msg({ context: 'notice.update_title', message: 'A new Switchyard version is out: {version}' }),
  'notice.update': msg({
    context: 'notice.update',
    message: 'Running {current}, latest release [{latest}]({url}).{notes}',
  }),
  'message.not_found': msg({ context: 'message.not_found', message: 'The message does not exist' }),
  'message.enter_title': msg({ context: 'message.enter_title', message: 'Enter the message title' }),
  'message.enter_content': msg({ context: 'message.enter_content', message: 'Enter the message content' }),
  'message.select_recipient': msg({ context: 'message.select_recipient', message: 'Select at least one recipient' }),
  'message.recipients_missing': msg({
    context: 'message.recipients_missing',
    message: 'These recipients do not exist: {ids}',
  }),
  'message.format_invalid': msg({
    context: 'message.format_invalid',
    message: 'The format can only be markdown or html',
  }),
  'log.pick_time': msg({ context: 'log.pick_time', message: 'Choose a log time' }),
  'log.target_required': msg({ context: 'log.target_required', message: 'Give a target timestamp' }),
  'log.span_too_long': msg({ context: 'log.span_too_long', message: 'The time span cannot be longer than 1 month' }),
  'log.range_inverted': msg({
    context: 'log.range_inverted',
    message: 'The start time cannot be later than the end time',
  }),
  'option.github_needs_config': msg({
    context: 'option.github_needs_config',
    message: 'GitHub OAuth cannot be turned on: enter the GitHub Client Id and Client Secret first',
  }),
  'option.linuxdo_needs_config': msg({
    context: 'option.linuxdo_needs_config',
    message: 'LinuxDO OAuth cannot be turned on: enter the LinuxDO Client Id and Client Secret first',
  }),
  'option.oidc_needs_config': msg({
    context: 'option.oidc_needs_config',
    message: 'OIDC login cannot be turned on: enter the OIDC Client Id, Client Secret and Well-Known URL first',
  }),
  'option.wechat_needs_config': msg({
    context: 'option.wechat_needs_config',
    message: 'WeChat login cannot be turned on: enter the WeChat login settings first',
  }),
  'option.turnstile_needs_config': msg({
    context: 'option.turnstile_needs_config',
    message: 'Turnstile cannot be turned on: enter the Turnstile settings first',
  }),
  'option.telegram_needs_config': msg({
    context: 'option.telegram_needs_config',
    message: 'Telegram OAuth cannot be turned on: enter the Telegram Bot Token and Bot Name first',
  }),
  'option.email_domains_needs_config': msg({
    context: 'option.email_domains_needs_config',
    message: 'The e-mail domain restriction cannot be turned on: enter the allowed domains first',
  }),
  'option.server_address_first': msg({
    context: 'option.server_address_first',
    message: 'Enter the server address first',
  }),
  'option.fallback_pricing': msg({
    context: 'option.fallback_pricing',
    message:
      'Check the fallback pricing: with a single price no ratios may be set, and ratios need both the input and the completion ratio',
  }),
  'option.ratios_reset': msg({ context: 'option.ratios_reset', message: 'Model ratios reset' }),
  'option.json_invalid': msg({ context: 'option.json_invalid', message: 'Not a valid JSON string' }),
  'option.json_invalid_detail': msg({
    context: 'option.json_invalid_detail',
    message: 'Not a valid JSON string: {detail}',
  }),
  'option.boolean': msg({ context: 'option.boolean', message: 'A boolean can only be true or false' }),
  'option.range': msg({ context: 'option.range', message: 'The value must be between {min} and {max}' }),
  'option.min': msg({ context: 'option.min', message: 'The value cannot be less than {min}' }),
  'option.enter_number': msg({ context: 'option.enter_number', message: 'Enter a number' }),
  'option.enter_integer': msg({ context: 'option.enter_integer', message: 'Enter an integer' }),
  'option.one_of': msg({ context: 'option.one_of', message: 'Must be one of {values}' }),
  'option.http_url': msg({ context: 'option.http_url', message: 'The address must start with http:// or https://' }),
  'option.path_or_url': msg({
    context: 'option.path_or_url',
    message: 'Enter a path starting with /, or an address starting with http:// or https://',
  }),
  'option.ratio_negative': msg({ context: 'option.ratio_negative', message: 'A ratio cannot be negative' }),
  'option.status_codes': msg({
    context: 'option.status_codes',
    message: 'Invalid status codes, e.g. 5xx,4xx or 429,500-503',
  }),
  'option.domain_invalid': msg({
    context: 'option.domain_invalid',
    message: '{domain} is not a valid domain, e.g. example.com',
  }),
  'option.domain_duplicate': msg({ context: 'option.domain_duplicate', message: '{domain} is listed twice' }),
  'option.rebate_range': msg({
    context: 'option.rebate_range',
    message: 'The rebate percentage must be between 0 and 100',
  }),
  'option.export_interval_min': msg({
    context: 'option.export_interval_min',
    message: 'The smallest interval is 1 minute',
  }),
  'option.trust_level_range': msg({
    context: 'option.trust_level_range',
    message: 'The trust level must be an integer from 0 to 4',
  }),
  'option.well_known_url': msg({
    context: 'option.well_known_url',
    message: 'The Well-Known URL must start with http:// or https://',
  }),
  'option.oidc_discovery_http': msg({
    context: 'option.oidc_discovery_http',
    message: 'Could not get the OIDC configuration: HTTP {status}',
  }),
  'option.oidc_discovery_too_large': msg({
    context: 'option.oidc_discovery_too_large',
    message: 'Could not get the OIDC configuration: the answer is too large',
  }),
  'option.oidc_discovery_not_json': msg({
    context: 'option.oidc_discovery_not_json',
    message: 'Could not get the OIDC configuration: the answer is not valid JSON',
  }),
  'option.oidc_discovery_incomplete': msg({
    context: 'option.oidc_discovery_incomplete',
    message: 'Could not get the OIDC configuration: the answer has no authorization_endpoint or token_endpoint',
  }),
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
  'notify.webhook_https': msg({
    context: 'notify.webhook_https',
    message: 'The webhook address must start with https://',
  }),
  'notify.type': msg({ context: 'notify.type', message: 'The notification method can only be email or webhook' }),
  'notify.threshold_not_number': msg({
    context: 'notify.threshold_not_number',
    message: 'The warning threshold must be a number',
  }),
  'notify.threshold_positive': msg({
    context: 'notify.threshold_positive',
    message: 'The warning threshold must be greater than 0',
  }),
  'notify.webhook_too_long': msg({ context: 'notify.webhook_too_long', message: 'The webhook address is too long' }),
  'notify.secret_too_long': msg({ context: 'notify.secret_too_long', message: 'The webhook secret is too long' }),
  'notify.email_format': msg({
    context: 'notify.email_format',
    message: 'The notification e-mail address is not valid',
  }),
  'update.no_feed': msg({
    context: 'update.no_feed',
    message: 'Update checks are not set up on this install',
  }),
  'update.http': msg({ context: 'update.http', message: 'Update check failed: HTTP {status}' }),
  'update.too_large': msg({ context: 'update.too_large', message: 'Update check failed: the answer is too large' }),
  'update.bad_format': msg({
    context: 'update.bad_format',
    message: 'Update check failed: the release feed answered in an unknown format',
  }),
  'log.redeemed': msg({ context: 'log.redeemed', message: 'Topped up {amount} with a redemption code' }),
  'log.online_topup': msg({ context: 'log.online_topup', message: 'Online top-up of {amount}, paid {money}' }),
  'log.admin_topup': msg({
    context: 'log.admin_topup',
    message: 'Order completed by an administrator: {amount}, paid {money}',
  }),
  'log.subscription_purchased': msg({
    context: 'log.subscription_purchased',
    message: 'Subscribed to {plan}: {amount} for this period, paid {money} by {method}',
  }),
  'log.subscription_granted': msg({
    context: 'log.subscription_granted',
    message: 'An administrator gave the plan {plan}: {amount} for this period',
  }),
  'log.subscription_balance_paid': msg({
    context: 'log.subscription_balance_paid',
    message: 'Paid {amount} from the balance for the plan {plan}',
  }),
  'log.subscription_reset': msg({
    context: 'log.subscription_reset',
    message: 'Subscription quota renewed for {plan}: {amount} for this period',
  }),
  'log.checkin': msg({ context: 'log.checkin', message: 'Check-in reward: {amount}' }),
  'log.new_user_gift': msg({ context: 'log.new_user_gift', message: 'Welcome gift for a new user: {amount}' }),
  'log.invitee_gift': msg({ context: 'log.invitee_gift', message: 'Gift for using an invitation code: {amount}' }),
  'log.inviter_gift': msg({ context: 'log.inviter_gift', message: 'Gift for inviting a user: {amount}' }),
  'log.admin_quota_change': msg({
    context: 'log.admin_quota_change',
    message: 'An administrator changed the quota from {from} to {to}',
  }),
  'log.price_mode_free': msg({
    context: 'log.price_mode_free',
    message: 'Model price {price}, group ratio {group_ratio}, no tokens so nothing charged',
  }),
  'log.ratio_mode_free': msg({
    context: 'log.ratio_mode_free',
    message:
      'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}, no tokens so nothing charged',
  }),
  'log.paid_from_plan': msg({ context: 'log.paid_from_plan', message: '{line}, paid from plan {title}' }),
  'log.paid_from_subscription': msg({
    context: 'log.paid_from_subscription',
    message: '{line}, paid from a subscription',
  }),
  'log.price_mode': msg({ context: 'log.price_mode', message: 'Model price {price}, group ratio {group_ratio}' }),
  'log.ratio_mode': msg({
    context: 'log.ratio_mode',
    message: 'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}',
  }),
  'log.task_submitted': msg({ context: 'log.task_submitted', message: '{platform} {action}, task ID {task_id}' }),
  'log.task_refund_midjourney': msg({
    context: 'log.task_refund_midjourney',
    message: 'Image task {task_id} failed, refunded {amount}; reason: {reason}',
  }),
  'log.task_refund_suno': msg({
    context: 'log.task_refund_suno',
    message: 'Suno task {task_id} failed, refunded {amount}; reason: {reason}',
  }),
  'task.failed': msg({ context: 'task.failed', message: 'Task failed' }),
  'log.relay_error': msg({ context: 'log.relay_error', message: '{en}' }),
};

/** Parameters that are themselves server texts (a field name, "1000 点额度") are translated too. */
function translateParam(value: string | number, depth: number): string | number {
  if (typeof value !== 'string' || depth > 2) return value;
  const inner = matchServerText(value);
  return inner ? translate(inner, depth + 1) : value;
}

function translate(m: ServerMessage, depth: number): string {
  const values = Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, translateParam(v, depth)]));
  // A variable, not an object literal in the call: Lingui's extractor reads `i18n._({...})` as a message.
  const descriptor: MessageDescriptor = { ...descriptors[m.code], values };
  return i18n._(descriptor);
}

/** A server message in the active language. */
export const serverMessageText = (code: ServerMessageCode, params: MessageParams = {}): string =>
  translate({ code, params }, 0);

/**
 * A message the server stored beside its prose (a log row's `other.message`, a notice's): in the active
 * language, amounts of quota through the console's money formatter (the operator's display mode).
 */
export const storedMessageInLanguage = (m: StoredMessage, display: QuotaDisplay = quotaDisplay()): string =>
  serverMessageText(
    m.code,
    paramsAsText(m.params, (quota) => formatQuota(quota, display)),
  );

/** A message's own text, unless it is a server notice (old rows, written before notices were stored). */
function noticeTextInLanguage(text: string): string {
  const m = matchServerText(text);
  return m?.code.startsWith('notice.') ? translate(m, 0) : text;
}

/**
 * An inbox message's title and content in the console's language when the server wrote it (a
 * notice: its stored messages); an administrator's message is shown as written.
 */
export function noticeInLanguage(m: { title: string; content: string; notice?: StoredNotice | null }): {
  title: string;
  content: string;
} {
  if (m.notice)
    return { title: storedMessageInLanguage(m.notice.title), content: storedMessageInLanguage(m.notice.content) };
  return { title: noticeTextInLanguage(m.title), content: noticeTextInLanguage(m.content) };
}

/** A text the server sent (a REST message, a stored log line): translated when it is one of its messages. */
export function serverTextInLanguage(text: string): string {
  const m = matchServerText(text);
  return m ? translate(m, 0) : text;
}

/** The codes the console can translate (for tests). */
export const translatedCodes = Object.keys(descriptors) as ServerMessageCode[];
