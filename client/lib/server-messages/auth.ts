import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { authMessages } from '../../../shared/server-messages/auth.ts';

/**
 * Sessions and access tokens, setup, login, registration, verification and the sign-in providers
 * (server/domains/auth/, server/plugins/): in English. Joined by client/lib/server-messages.ts.
 */
export const authDescriptors: Record<keyof typeof authMessages, MessageDescriptor> = {
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
};
