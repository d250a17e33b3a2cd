import type { authMessages } from '../server-messages/auth.ts';

/**
 * Sessions and access tokens, setup, login, registration, verification and the sign-in providers
 * (server/domains/auth/, server/plugins/): in English. Joined by shared/server-messages-en.ts.
 */
export const authEnglish: Record<keyof typeof authMessages, string> = {
  'auth.no_access_token': 'Not logged in and no access token given',
  'auth.invalid_access_token': 'Invalid access token',
  'auth.no_user_header': 'Not allowed: the New-Api-User header is missing',
  'auth.user_header_mismatch': 'Not allowed: New-Api-User does not match the signed-in user',
  'auth.user_banned': 'This user has been banned',
  'auth.user_deleted': 'This account has been deleted',
  'setup.done': 'The system has already been set up',
  'setup.ok': 'The system has been set up',
  'setup.flag_not_boolean': '{flag} must be a boolean',
  'setup.code_required':
    'Enter the setup code: it is printed in the server log at start (not needed when opened on the server itself)',
  'setup.code_wrong': 'Wrong setup code: use the one printed in the server log at start',
  'login.wrong_credentials': 'Wrong username or password, or the user has been banned',
  'login.password_disabled': 'The administrator has turned off password login; log in with a third-party account',
  'login.enter_credentials': 'Enter your username and password',
  'login.too_many_attempts': 'Too many attempts, try again in {minutes} min',
  'register.disabled': 'The administrator has closed registration of new users',
  'register.password_disabled':
    'The administrator has turned off registration with a password; register with a third-party account',
  'register.passwords_differ': 'The two passwords do not match',
  'register.email_format': 'The e-mail address is not valid',
  'register.email_too_long': 'The e-mail address is too long',
  'register.email_verification_required':
    'E-mail verification is on: enter your e-mail address and the verification code',
  'verify.turnstile_empty': 'The Turnstile token is empty',
  'verify.turnstile_failed': 'Turnstile verification failed, please refresh and try again',
  'verify.code_wrong': 'The verification code is wrong or has expired',
  'oauth.provider_disabled': 'The administrator has not turned on login and registration with {provider}',
  'oauth.account_bound': 'This {provider} account is already bound to another user',
  'oauth.telegram_unbound': 'This Telegram account is not bound; bind it in your personal settings first',
  'oauth.register_failed': 'Registration failed',
  'oauth.state_mismatch': 'The login state is missing or does not match; please start the login again',
  'oauth.server_unreachable': 'Could not reach the {provider} server, please try again later',
  'oauth.server_error': 'The {provider} server answered with an error (HTTP {status})',
  'oauth.github_failed': 'GitHub authorization failed: {reason}',
  'oauth.linuxdo_failed': 'Linux DO authorization failed: {reason}',
  'oauth.invalid_code': 'invalid code',
  'oauth.linuxdo_inactive': 'The Linux DO account is not active or has been silenced',
  'oauth.linuxdo_trust_level': 'The Linux DO trust level is below the minimum the administrator set',
  'oauth.oidc_discovery_failed': 'Could not get the OIDC configuration, check the Well-Known URL',
  'oauth.oidc_failed': 'OIDC authorization failed, please try again',
  'oauth.oidc_userinfo_failed': 'Could not get the OIDC user information',
  'oauth.oidc_no_sub': 'The OIDC user information has no sub',
  'oauth.telegram_unconfigured': 'The administrator has not configured a Telegram bot',
  'oauth.telegram_failed': 'Telegram verification failed',
  'oauth.telegram_expired': 'The Telegram login has expired, please log in again',
  'oauth.telegram_bad_id': 'Invalid Telegram id',
  'oauth.telegram_bad_auth_date': 'Invalid auth_date',
  'oauth.telegram_bad_hash': 'Invalid hash',
  'oauth.wechat_unconfigured': 'The administrator has not configured the WeChat server address',
};
