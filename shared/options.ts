import { z } from 'zod';
import { DEFAULT_QUOTA_PER_UNIT } from './constants.ts';
import { QUOTA_DISPLAY_TYPES } from './currency.ts';
import * as defaults from './default-ratios.ts';
import { consoleOptions } from './options-console.ts';
import { defaultModelPrice } from './preset-prices.ts';
import { modelMappingOption } from './schemas/model-mapping.ts';

/*
 * The typed registry of every site option (key names as new-api/one-api use them).
 * Values travel and are stored as strings; each entry parses the string into its
 * typed value and carries the validation rule and message of the spec.
 */

export interface OptionDef<T> {
  /** Stored string used when the key has never been written. */
  default: string;
  /** Parses the stored string into the typed value; its error message is what the admin sees. */
  schema: z.ZodType<T, string>;
  /** Never sent by GET /api/option/ (keys ending in Token, Secret or Key, like new-api). */
  secret?: boolean;
}

const JSON_INVALID = '不是合法的 JSON 字符串';

const bool = (d: boolean): OptionDef<boolean> => ({
  default: String(d),
  schema: z.enum(['true', 'false'], { message: '布尔值只能是 true 或 false' }).transform((v) => v === 'true'),
});

const num = (
  d: number,
  opts: { min?: number; max?: number; int?: boolean; message?: string } = {},
): OptionDef<number> => {
  const range =
    opts.message ??
    (opts.max !== undefined ? `取值范围为 ${opts.min ?? '-∞'} 到 ${opts.max}` : `不能小于 ${opts.min ?? '-∞'}`);
  return {
    default: String(d),
    schema: z
      .string()
      .trim()
      .refine((v) => v !== '' && Number.isFinite(Number(v)), '请输入数字')
      .transform(Number)
      .refine((v) => !opts.int || Number.isInteger(v), '请输入整数')
      .refine((v) => (opts.min === undefined || v >= opts.min) && (opts.max === undefined || v <= opts.max), range),
  };
};

const int = (d: number, opts: { min?: number; max?: number; message?: string } = {}) => num(d, { ...opts, int: true });

const str = (d = '', secret = false): OptionDef<string> => ({ default: d, schema: z.string(), secret });

const json = <T>(d: unknown, inner: z.ZodType<T>): OptionDef<T> => ({
  default: typeof d === 'string' ? d : JSON.stringify(d),
  schema: z.string().transform((v, ctx) => {
    let parsed: unknown;
    try {
      parsed = v.trim() === '' ? d : JSON.parse(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: JSON_INVALID });
      return z.NEVER;
    }
    const r = inner.safeParse(parsed);
    if (!r.success) {
      ctx.addIssue({ code: 'custom', message: `${JSON_INVALID}：${r.error.issues[0]?.message ?? ''}` });
      return z.NEVER;
    }
    return r.data;
  }),
});

const enumOf = <T extends string>(values: readonly [T, ...T[]], d: T): OptionDef<T> => ({
  default: d,
  schema: z.enum(values, { message: `只能是 ${values.join(' / ')}` }),
});

/** An exchange rate: units of a currency per US dollar, above zero. */
const positiveRate = (d: number): OptionDef<number> => ({
  default: String(d),
  schema: z
    .string()
    .trim()
    .refine((v) => v !== '' && Number.isFinite(Number(v)), '请输入数字')
    .transform(Number)
    .refine((v) => v > 0, '汇率必须大于 0'),
});

const httpUrl = (d = ''): OptionDef<string> => ({
  default: d,
  schema: z
    .string()
    .trim()
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), '地址必须以 http:// 或 https:// 开头')
    .transform((v) => v.replace(/\/+$/, '')),
});

const ratioMap = z.record(z.string(), z.number().min(0, '倍率不能为负数'));
const groupDescMap = z.record(z.string(), z.string());
const chatLinks = z.array(z.record(z.string(), z.string()));
const modelHeaders = z.record(z.string(), z.record(z.string(), z.union([z.string(), z.array(z.string())])));

/** Comma list of HTTP status classes/codes, e.g. `5xx,4xx` or `429,500-503`; empty means all. */
/**
 * The upstream statuses the relay retries on another channel by default, written as a status list:
 * 429 and every 5xx except 504 and 524 (timeouts). The custom list starts from it.
 */
export const DEFAULT_RETRY_STATUS_CODES = '429,500-503,505-523,525-599';

export const statusCodeList = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || v.split(',').every((p) => /^\s*([1-5]xx|\d{3}(-\d{3})?)\s*$/i.test(p)),
    '状态码格式错误，例如 5xx,4xx 或 429,500-503',
  );

const domainList = z
  .string()
  .transform((v) =>
    v
      .split(/[,\n]/)
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
  )
  .superRefine((domains, ctx) => {
    const seen = new Set<string>();
    for (const d of domains) {
      if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d))
        ctx.addIssue({ code: 'custom', message: `${d} 不是合法的域名，例如 example.com` });
      if (seen.has(d)) ctx.addIssue({ code: 'custom', message: `${d} 重复` });
      seen.add(d);
    }
  });

export const optionRegistry = {
  // Quota, rebate and invitations
  QuotaForNewUser: int(0, { min: 0 }),
  QuotaForInviter: int(0, { min: 0 }),
  QuotaForInvitee: int(0, { min: 0 }),
  PreConsumedQuota: int(500, { min: 0 }),
  AffEnabled: bool(true),
  RebateEnabled: bool(false),
  RebatePercentage: num(0, { min: 0, max: 100, message: '返利比例必须在0到100之间' }),
  // Also the default quota-warning threshold of users who never chose one; the spec's default is 500000 ($1).
  QuotaRemindThreshold: int(DEFAULT_QUOTA_PER_UNIT, { min: 0 }),
  QuotaPerUnit: num(DEFAULT_QUOTA_PER_UNIT, { min: 1 }),
  TopUpLink: str(),
  // Pricing
  ModelPrice: json(defaultModelPrice, ratioMap),
  ModelRatio: json(defaults.defaultModelRatio, ratioMap),
  CompletionRatio: json(defaults.defaultCompletionRatio, ratioMap),
  CacheRatio: json(defaults.defaultCacheRatio, ratioMap),
  CacheCreationRatio: json(defaults.defaultCacheCreationRatio, ratioMap),
  // The operator looked at the shipped preset prices and kept them (pricing page); the page stops asking.
  PresetPricesReviewed: bool(false),
  AudioRatio: json({}, ratioMap),
  // Video models (issue 40): ModelPrice is per second of video unless the model is listed here as
  // "job" (one price per video, whatever its length).
  VideoPriceUnit: json({}, z.record(z.string(), z.enum(['second', 'job'], { message: '只能是 second 或 job' }))),
  AudioCompletionRatio: json({}, ratioMap),
  // Only the group every user starts in (issue 39): a fresh install offers no group the operator did not
  // create. Installs set up with the former vip/svip presets keep them (migration 2026-11-28T0000-group-presets).
  GroupRatio: json({ default: 1 }, ratioMap),
  UserUsableGroups: json({ default: '默认分组' }, groupDescMap),
  fallback_pricing_enabled: bool(false),
  fallback_single_price: num(0, { min: 0 }),
  fallback_input_ratio: num(0, { min: 0 }),
  fallback_completion_ratio: num(0, { min: 0 }),
  redirect_billing_enabled: bool(false),
  // Virtual model name → ordered real models (settings › models › model mapping).
  ModelMapping: json({}, modelMappingOption),
  // Chat links and misc
  Chats: json(
    [{ 'ChatGPT Next Web': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' }],
    chatLinks,
  ),
  StreamCacheQueueLength: int(0, { min: 0 }),
  ChannelDisableThreshold: num(5, { min: 0 }),
  // How many other channels a failed request is tried on (relay.md §4; server/relay/retry.ts).
  RetryTimes: int(3, { min: 0, max: 10 }),
  LogConsumeEnabled: bool(true),
  // Error log rows (type 6) for failed relay calls and retried attempts (relay/error-log.ts).
  ErrorLogEnabled: bool(true),
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(true),
  StopOnSensitiveEnabled: bool(true),
  SensitiveWords: str(''),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjModeClearEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjActionCheckSuccessEnabled: bool(true),
  DrawingEnabled: bool(false),
  TaskEnabled: bool(false),
  // Minutes an unfinished video task may run before the poller fails it and refunds it in full (issue 40;
  // tasks/lifecycle.ts, which Midjourney and Suno are to move onto).
  TaskTimeoutMinutes: int(120, { min: 1 }),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, { min: 1, message: '最小间隔为 1 分钟' }),
  DataExportDefaultTime: enumOf(['hour', 'day', 'week'], 'hour'),
  CheckInEnabled: bool(false),
  CheckInQuota: int(1000, { min: 0 }),
  CheckInMaxQuota: int(10000, { min: 0 }),
  // Rate limits
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(0, { min: 0 }),
  ModelRequestRateLimitSuccessCount: int(1000, { min: 1 }),
  ModelRequestRateLimitDurationMinutes: int(1, { min: 0 }),
  // Gemini
  'gemini.safety_settings': json({ default: 'OFF' }, z.record(z.string(), z.string())),
  'gemini.version_settings': json({ default: 'v1beta' }, z.record(z.string(), z.string())),
  'gemini.supported_imagine_models': json(['gemini-2.0-flash-exp-image-generation'], z.array(z.string())),
  'gemini.thinking_adapter_enabled': bool(false),
  'gemini.thinking_adapter_budget_tokens_percentage': num(0.6, { min: 0.002, max: 1 }),
  'gemini.models_supported_thinking_budget': json(['gemini-2.5-flash', 'gemini-2.5-pro'], z.array(z.string())),
  // Claude
  'claude.model_headers_settings': json({}, modelHeaders),
  'claude.default_max_tokens': json({ default: 8192 }, z.record(z.string(), z.number().int().min(1))),
  'claude.thinking_adapter_enabled': bool(true),
  'claude.thinking_adapter_budget_tokens_percentage': num(0.8, { min: 0.1, max: 1 }),
  // Global relay behaviour
  'global.pass_through_request_enabled': bool(false),
  'global.hide_upstream_error_enabled': bool(false),
  'global.block_browser_extension_enabled': bool(false),
  'global.rate_limit_exempt_enabled': bool(false),
  'global.rate_limit_exempt_group': str('bulk-ok'),
  'global.safe_check_exempt_enabled': bool(false),
  'global.safe_check_exempt_group': str('nsfw-ok'),
  // Retries (one concept): RetryTimes is the count; auto_retry_enabled switches from the built-in
  // statuses to auto_retry_status_codes; auto_retry_count is RetryTimes under its legacy name.
  'global.auto_retry_enabled': bool(false),
  'global.auto_retry_count': int(3, { min: 1, max: 10 }),
  'global.auto_retry_force_channel_switch': bool(false),
  'global.auto_retry_status_codes': { default: DEFAULT_RETRY_STATUS_CODES, schema: statusCodeList },
  // Session affinity (new-api's key names; docs/configuration.md § Session affinity): an agent session's turns stay on
  // the channel and key of its last answer, for a TTL renewed by every turn, so upstream prompt caches stay warm.
  'channel_affinity_setting.enabled': bool(true),
  'channel_affinity_setting.default_ttl_seconds': int(3600, { min: 60, max: 86400 }),
  'general_setting.ping_interval_enabled': bool(false),
  'general_setting.ping_interval_seconds': int(60, { min: 1 }),
  'general_setting.docs_link': str(''),
  // Sign-in and registration
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  RegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: {
    default: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
    schema: domainList.transform((d) => d.join(',')),
  },
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: str('', true),
  LinuxDOOAuthEnabled: bool(false),
  LinuxDOClientId: str(),
  LinuxDOClientSecret: str('', true),
  LinuxDOMinimumTrustLevel: int(0, { min: 0, max: 4, message: '信任等级必须是 0 到 4 的整数' }),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: httpUrl(),
  WeChatServerToken: str('', true),
  WeChatAccountQRCodeImageURL: str(),
  TelegramOAuthEnabled: bool(false),
  TelegramBotToken: str('', true),
  TelegramBotName: str(),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: str('', true),
  'oidc.enabled': bool(false),
  'oidc.client_id': str(),
  'oidc.client_secret': str('', true),
  'oidc.well_known': httpUrl(),
  'oidc.authorization_endpoint': httpUrl(),
  'oidc.token_endpoint': httpUrl(),
  'oidc.user_info_endpoint': httpUrl(),
  // Passkeys (WebAuthn), new-api's passkey.* settings: the relying party's name and id and the accepted
  // origins default to SystemName and ServerAddress (or the address the browser used) when empty.
  'passkey.enabled': bool(false),
  'passkey.rp_display_name': str(),
  'passkey.rp_id': str(),
  'passkey.origins': str(),
  'passkey.allow_insecure_origin': bool(false),
  'passkey.user_verification': enumOf(['required', 'preferred', 'discouraged'] as const, 'preferred'),
  'passkey.attachment_preference': {
    default: '',
    schema: z.enum(['', 'platform', 'cross-platform'], { message: '只能是 空 / platform / cross-platform' }),
  } satisfies OptionDef<'' | 'platform' | 'cross-platform'>,
  // Mail
  SMTPServer: str(),
  SMTPPort: int(587, { min: 1, max: 65535 }),
  SMTPSSLEnabled: bool(false),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: str('', true),
  // Site and content
  SystemName: str('Switchyard'),
  Logo: str(),
  Footer: str(),
  Notice: str(),
  About: str(),
  HomePageContent: str(),
  HeadHTML: str(),
  GlobalCSS: str(),
  GlobalJS: str(),
  ServerAddress: httpUrl(''),
  WorkerUrl: httpUrl(),
  WorkerValidKey: str('', true),
  ChatLink: str(),
  ChatLink2: str(),
  DemoSiteEnabled: bool(false),
  SelfUseModeEnabled: bool(false),
  // Serves the price ratios to anyone at GET /api/ratio_config (for another gateway's price sync).
  ExposeRatioEnabled: bool(false),
  // Which new-api /api contract the REST adapter answers in (server/compat/contract.ts).
  ApiCompatContract: {
    default: '2026',
    schema: z.enum(['2026', '2025-04'], { message: '只能是 2026 或 2025-04' }),
  } satisfies OptionDef<'2026' | '2025-04'>,
  // How money is shown (shared/currency.ts): the older switch and new-api 2026's display type under its own names;
  // saving either keeps the other in step (options.rules.ts mirroredOption).
  DisplayInCurrencyEnabled: bool(true),
  'general_setting.quota_display_type': enumOf(QUOTA_DISPLAY_TYPES, 'USD'),
  'general_setting.custom_currency_symbol': {
    default: '¤',
    schema: z.string().trim().min(1, '请填写货币符号').max(8, '货币符号最多 8 个字符'),
  } satisfies OptionDef<string>,
  'general_setting.custom_currency_exchange_rate': positiveRate(1),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  UpdateCheckEnabled: bool(false),
  // Payment
  PayAddress: httpUrl(),
  CustomCallbackAddress: httpUrl(),
  // Where the gateway sends the payer back: a path on ServerAddress (new-api's console uses /log) or a full address.
  PayReturnUrl: {
    default: '/app/wallet/topup-success',
    schema: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || /^\/(?!\/)\S*$/.test(v) || /^https?:\/\/\S+$/i.test(v),
        '请填写以 / 开头的路径，或以 http:// 或 https:// 开头的地址',
      ),
  } satisfies OptionDef<string>,
  EpayId: str(),
  EpayKey: str('', true),
  Price: num(7.3, { min: 0 }),
  MinTopUp: int(1, { min: 1 }),
  TopupGroupRatio: json({ default: 1 }, ratioMap),
  // Channels and monitoring
  // On for new installs (issue 39); installs from before keep 'false' (migration 2026-11-28T0000).
  AutomaticDisableChannelEnabled: bool(true),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: str(
    [
      'Your credit balance is too low',
      'This organization has been disabled.',
      'You exceeded your current quota',
      'Permission denied',
      'The security token included in the request is invalid',
      'Operation not allowed',
      'Your account is not authorized',
    ].join('\n'),
  ),
  // Background jobs (server/ops/jobs); 0 = off.
  ChannelTestIntervalMinutes: int(0, { min: 0 }),
  ChannelBalanceRefreshIntervalMinutes: int(0, { min: 0 }),
  LogRetentionDays: int(0, { min: 0 }),
  // The keys new-api's 2026 console reads on its settings tabs (options-console.ts).
  ...consoleOptions({ bool, int, num, str, json }),
} satisfies Record<string, OptionDef<unknown>>;

export type OptionKey = keyof typeof optionRegistry;
export type OptionValue<K extends OptionKey> = z.output<(typeof optionRegistry)[K]['schema']>;
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

/** The languages an install is set up in: the console's. Chinese is new-api's, and the default. */
export const installLanguages = ['zh', 'en'] as const;
export type InstallLanguage = (typeof installLanguages)[number];

/**
 * Defaults that ship words people read, in each install language other than Chinese (the registry's
 * defaults are new-api's Chinese). Setup stores these over an option still at its default
 * (server/domains/users/setup.service.ts), so an English install lists its groups in English.
 */
export const localizedDefaults: Record<Exclude<InstallLanguage, 'zh'>, Partial<Record<OptionKey, string>>> = {
  en: { UserUsableGroups: JSON.stringify({ default: 'Default group' }) },
};

/** Reads one typed option from memory: the options service's `get`, passed as a function. */
export type OptionReader = <K extends OptionKey>(key: K) => OptionValue<K>;

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(optionRegistry, key);

/** new-api hides keys ending in Token, Secret or Key from GET /api/option/. */
export const isSecretOptionKey = (key: string) =>
  (isOptionKey(key) && (optionRegistry[key] as OptionDef<unknown>).secret === true) ||
  (/(Token|Secret|Key)$/.test(key) && !publicKeyNames.has(key));

/** Names that end in "Key" but are public by nature (the site key is sent to every browser). */
const publicKeyNames = new Set(['TurnstileSiteKey']);

/** Validates one stored string; returns the typed value or the first validation message. */
export function parseOption<K extends OptionKey>(
  key: K,
  raw: string,
): { ok: true; value: OptionValue<K> } | { ok: false; message: string } {
  const def = optionRegistry[key] as OptionDef<OptionValue<K>>;
  const r = def.schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, message: r.error.issues[0]?.message ?? '参数错误' };
}
