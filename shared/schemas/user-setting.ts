import { z } from 'zod';
import { DEFAULT_QUOTA_PER_UNIT } from '../constants.ts';

/** Old consoles and scripts send booleans as 0/1 or "true"/"false". */
const boolish = () =>
  z.preprocess(
    (v) => {
      if (v === 1 || v === '1' || v === 'true') return true;
      if (v === 0 || v === '0' || v === 'false') return false;
      return v;
    },
    z.boolean({ message: '参数必须是布尔值' }),
  );

/*
 * The user's own settings (users.setting, a JSON text): quota-warning notification,
 * pricing and log preferences. The server parses stored text leniently (old rows,
 * imported databases); input from the console is checked strictly.
 */

/** Spec: the threshold defaults to 500000 quota ($1); the console falls back to 100000 when nothing loaded. */
export const DEFAULT_QUOTA_WARNING_THRESHOLD = DEFAULT_QUOTA_PER_UNIT;

/**
 * Presets beside the threshold input, in currency units: the spec's 100,000, 500,000, 1,000,000
 * and 5,000,000 quota at the default 500,000 per $ (its "1000000 = 5$" label was wrong: that is
 * $2). The console turns them into quota at the site's rate and labels them in its display unit.
 */
export const QUOTA_WARNING_PRESET_UNITS = [0.2, 1, 2, 10] as const;

export const notifyTypes = ['email', 'webhook'] as const;
export type NotifyType = (typeof notifyTypes)[number];

export const WEBHOOK_HTTPS_MESSAGE = 'Webhook地址必须以https://开头';

export const userSettingInput = z
  .object({
    notify_type: z.enum(notifyTypes, { message: '通知方式只能是 email 或 webhook' }).default('email'),
    quota_warning_threshold: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z.number({ message: '预警阈值必须是数字' }).gt(0, '预警阈值必须大于 0'),
    ),
    webhook_url: z.string().trim().max(2048, 'Webhook地址过长').default(''),
    webhook_secret: z.string().max(512, 'Webhook密钥过长').default(''),
    notification_email: z
      .string()
      .trim()
      .default('')
      .refine((v) => v === '' || z.email().safeParse(v).success, '通知邮箱格式不正确'),
    accept_unset_model_ratio_model: boolish().default(false),
    show_ip_in_logs: boolish().default(false),
  })
  .superRefine((s, ctx) => {
    if (s.notify_type === 'webhook' && !/^https:\/\/\S+$/i.test(s.webhook_url))
      ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: WEBHOOK_HTTPS_MESSAGE });
    else if (s.webhook_url !== '' && !/^https:\/\//i.test(s.webhook_url))
      ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: WEBHOOK_HTTPS_MESSAGE });
  });
export type UserSettingInput = z.input<typeof userSettingInput>;
export type UserSetting = z.output<typeof userSettingInput>;

/** Lenient reading of stored text: each bad or missing field takes its default. */
const storedSetting = z.object({
  notify_type: z.enum(notifyTypes).catch('email'),
  quota_warning_threshold: z.number().gt(0).optional().catch(undefined),
  webhook_url: z.string().catch(''),
  webhook_secret: z.string().catch(''),
  notification_email: z.string().catch(''),
  accept_unset_model_ratio_model: z.boolean().catch(false),
  show_ip_in_logs: z.boolean().catch(false),
});

/**
 * Parses users.setting for every reader (relay, notifications, the settings screen).
 * `fallbackThreshold` is the site default (option QuotaRemindThreshold) for users who never chose one.
 */
export function readUserSetting(
  settingText: string | null | undefined,
  fallbackThreshold = DEFAULT_QUOTA_WARNING_THRESHOLD,
): UserSetting {
  let parsed: unknown = {};
  try {
    parsed = settingText ? JSON.parse(settingText) : {};
  } catch {
    // A corrupt setting must not break billing; defaults apply.
  }
  const obj = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  const s = storedSetting.parse({
    notify_type: 'email',
    webhook_url: '',
    webhook_secret: '',
    notification_email: '',
    accept_unset_model_ratio_model: false,
    show_ip_in_logs: false,
    ...obj,
  });
  return {
    ...s,
    quota_warning_threshold:
      s.quota_warning_threshold ?? (fallbackThreshold > 0 ? fallbackThreshold : DEFAULT_QUOTA_WARNING_THRESHOLD),
  };
}
