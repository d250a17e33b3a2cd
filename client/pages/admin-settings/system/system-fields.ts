import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';

export const generalFields: FieldDef[] = [
  {
    key: 'ServerAddress',
    kind: 'text',
    label: msg`Server address`,
    description: msg`The public address of this site, used in links and payment callbacks`,
    placeholder: 'https://gateway.example.com',
    span: 12,
  },
  { key: 'WorkerUrl', kind: 'text', label: msg`Worker proxy address`, placeholder: 'https://', span: 6 },
  { key: 'WorkerValidKey', kind: 'password', label: msg`Worker key`, secret: true, span: 6 },
];

export const paymentFields: FieldDef[] = [
  { key: 'PayAddress', kind: 'text', label: msg`Payment gateway address`, placeholder: 'https://' },
  { key: 'EpayId', kind: 'text', label: msg`Merchant id` },
  { key: 'EpayKey', kind: 'password', label: msg`Merchant key`, secret: true },
  { key: 'Price', kind: 'number', label: msg`Yuan paid for $1 of quota`, min: 0, step: 0.1 },
  { key: 'MinTopUp', kind: 'number', label: msg`Minimum top-up`, min: 1, decimals: 0 },
  {
    key: 'CustomCallbackAddress',
    kind: 'text',
    label: msg`Callback address`,
    description: msg`Empty means the server address`,
    placeholder: 'https://',
  },
  {
    key: 'PayReturnUrl',
    kind: 'text',
    label: msg`Return page after payment`,
    description: msg`A path on the server address (new-api's console uses /log) or a full address; empty means this console's own page`,
    placeholder: '/log',
  },
  {
    key: 'TopupGroupRatio',
    kind: 'json',
    label: msg`Top-up price multiplier per group`,
    description: msg`A JSON object: group name → multiplier`,
  },
];

export const smtpFields: FieldDef[] = [
  { key: 'SMTPServer', kind: 'text', label: msg`SMTP server`, placeholder: 'smtp.example.com' },
  { key: 'SMTPPort', kind: 'number', label: msg`SMTP port`, min: 1, max: 65535, decimals: 0 },
  { key: 'SMTPAccount', kind: 'text', label: msg`SMTP account` },
  { key: 'SMTPFrom', kind: 'text', label: msg`Sender address` },
  { key: 'SMTPToken', kind: 'password', label: msg`SMTP password`, secret: true },
  { key: 'SMTPSSLEnabled', kind: 'switch', label: msg`Use SSL/TLS` },
];

export const oidcFields: FieldDef[] = [
  { key: 'oidc.enabled', kind: 'switch', label: msg`Allow sign-in with OIDC`, span: 12 },
  { key: 'oidc.client_id', kind: 'text', label: msg`Client id`, span: 6 },
  { key: 'oidc.client_secret', kind: 'password', label: msg`Client secret`, secret: true, span: 6 },
  {
    key: 'oidc.well_known',
    kind: 'text',
    label: msg`Well-known URL`,
    placeholder: 'https://idp.example.com/.well-known/openid-configuration',
    span: 12,
  },
  { key: 'oidc.authorization_endpoint', kind: 'text', label: msg`Authorization endpoint` },
  { key: 'oidc.token_endpoint', kind: 'text', label: msg`Token endpoint` },
  { key: 'oidc.user_info_endpoint', kind: 'text', label: msg`User info endpoint` },
];

export const githubFields: FieldDef[] = [
  { key: 'GitHubOAuthEnabled', kind: 'switch', label: msg`Allow sign-in with GitHub`, span: 12 },
  { key: 'GitHubClientId', kind: 'text', label: msg`Client id`, span: 6 },
  { key: 'GitHubClientSecret', kind: 'password', label: msg`Client secret`, secret: true, span: 6 },
];

export const linuxDoFields: FieldDef[] = [
  { key: 'LinuxDOOAuthEnabled', kind: 'switch', label: msg`Allow sign-in with Linux.do`, span: 12 },
  { key: 'LinuxDOClientId', kind: 'text', label: msg`Client id` },
  { key: 'LinuxDOClientSecret', kind: 'password', label: msg`Client secret`, secret: true },
  { key: 'LinuxDOMinimumTrustLevel', kind: 'number', label: msg`Minimum trust level`, min: 0, max: 4, decimals: 0 },
];

export const wechatFields: FieldDef[] = [
  { key: 'WeChatAuthEnabled', kind: 'switch', label: msg`Allow sign-in with WeChat`, span: 12 },
  { key: 'WeChatServerAddress', kind: 'text', label: msg`WeChat server address`, placeholder: 'https://' },
  { key: 'WeChatServerToken', kind: 'password', label: msg`WeChat server token`, secret: true },
  { key: 'WeChatAccountQRCodeImageURL', kind: 'text', label: msg`Official account QR code image URL` },
];

export const telegramFields: FieldDef[] = [
  { key: 'TelegramOAuthEnabled', kind: 'switch', label: msg`Allow sign-in with Telegram`, span: 12 },
  { key: 'TelegramBotToken', kind: 'password', label: msg`Bot token`, secret: true, span: 6 },
  { key: 'TelegramBotName', kind: 'text', label: msg`Bot name`, span: 6 },
];

export const turnstileFields: FieldDef[] = [
  { key: 'TurnstileCheckEnabled', kind: 'switch', label: msg`Require human verification (Turnstile)`, span: 12 },
  { key: 'TurnstileSiteKey', kind: 'text', label: msg`Site key`, span: 6 },
  { key: 'TurnstileSecretKey', kind: 'password', label: msg`Secret key`, secret: true, span: 6 },
];

export const loginFields: FieldDef[] = [
  { key: 'PasswordLoginEnabled', kind: 'switch', label: msg`Allow password sign-in` },
  { key: 'PasswordRegisterEnabled', kind: 'switch', label: msg`Allow registration with a password` },
  { key: 'RegisterEnabled', kind: 'switch', label: msg`Allow new registrations` },
  { key: 'EmailVerificationEnabled', kind: 'switch', label: msg`Require e-mail verification to register` },
];
