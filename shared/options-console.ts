import { z } from 'zod';
import type { OptionDef } from './options.ts';
import { type ServerMessageCode, serverText } from './server-messages.ts';

/*
 * Options that new-api's 2026 console reads and writes on its settings tabs (key names as new-api
 * stores them; docs/new-api-contract/misc.md). Built from options.ts's own value kinds, passed in,
 * so this file imports nothing from the registry at run time (no import cycle).
 *
 * Several keys name a new-api feature Switchyard does not have (a disk cache for request bodies,
 * load shedding on CPU/memory thresholds, io.net deployments): their default is what Switchyard
 * does, and a save that would switch the feature on is refused with the reason, never stored and ignored.
 */

interface OptionKinds {
  bool: (d: boolean) => OptionDef<boolean>;
  int: (d: number, opts?: { min?: number; max?: number; message?: string }) => OptionDef<number>;
  num: (d: number, opts?: { min?: number; max?: number; message?: string }) => OptionDef<number>;
  str: (d?: string, secret?: boolean) => OptionDef<string>;
  json: <T>(d: unknown, inner: z.ZodType<T>) => OptionDef<T>;
}

/** A switch for a feature Switchyard does not have: only `false` is accepted. */
const alwaysOff = (why: ServerMessageCode): OptionDef<false> => ({
  default: 'false',
  schema: z.literal('false', { message: serverText(why) }).transform(() => false as const),
});

/** The terms version new-api's console expects a confirmation for (payment_compliance). */
export const PAYMENT_COMPLIANCE_TERMS_VERSION = 'v1';

/** Keys only POST /api/option/payment_compliance writes (new-api refuses them on PUT /api/option/ too). */
export const paymentComplianceKeys = [
  'payment_setting.compliance_confirmed',
  'payment_setting.compliance_terms_version',
  'payment_setting.compliance_confirmed_at',
  'payment_setting.compliance_confirmed_by',
  'payment_setting.compliance_confirmed_ip',
] as const;

export function consoleOptions({ bool, int, num, str, json }: OptionKinds) {
  const jsonList = json([], z.array(z.unknown()));
  return {
    // Wallet: preset amounts and their discounts (amount → multiplier, e.g. {"100": 0.9}).
    'payment_setting.amount_options': json([10, 20, 50, 100, 200, 500], z.array(z.number().int().positive())),
    'payment_setting.amount_discount': json({}, z.record(z.string().regex(/^\d+$/), z.number().gt(0).max(1))),
    // The operator's confirmation of new-api's payment-compliance statement (who, when, from where).
    'payment_setting.compliance_confirmed': bool(false),
    'payment_setting.compliance_terms_version': str(''),
    'payment_setting.compliance_confirmed_at': int(0, { min: 0 }),
    'payment_setting.compliance_confirmed_by': int(0, { min: 0 }),
    'payment_setting.compliance_confirmed_ip': str(''),
    // Yuan per US dollar: what amounts are multiplied by when general_setting.quota_display_type is CNY.
    USDExchangeRate: num(7.3, { min: 0.01 }),
    // Legal pages (GET /api/user-agreement, /api/privacy-policy); empty means not published.
    'legal.user_agreement': str(''),
    'legal.privacy_policy': str(''),
    // Dashboard panels (settings › dashboard): API addresses, announcements, FAQ, uptime groups.
    'console_setting.api_info': jsonList,
    'console_setting.announcements': jsonList,
    'console_setting.faq': jsonList,
    'console_setting.uptime_kuma_groups': jsonList,
    'console_setting.api_info_enabled': bool(true),
    'console_setting.announcements_enabled': bool(true),
    'console_setting.faq_enabled': bool(true),
    'console_setting.uptime_kuma_enabled': bool(true),
    // Which header and sidebar entries the console shows (JSON written by the console; empty is its default).
    HeaderNavModules: str(''),
    SidebarModulesAdmin: str(''),
    // Session affinity's other settings tab keys: stored for the console; Switchyard pins by agent session
    // (relay/affinity/pins.ts), so rules and the entry cap do not change its routing.
    'channel_affinity_setting.switch_on_success': bool(true),
    'channel_affinity_setting.max_entries': int(100000, { min: 0 }),
    'channel_affinity_setting.rules': jsonList,
    // Performance tab.
    'performance_setting.disk_cache_enabled': alwaysOff('option.no_disk_cache'),
    'performance_setting.disk_cache_threshold_mb': int(10, { min: 1 }),
    'performance_setting.disk_cache_max_size_mb': int(1024, { min: 1 }),
    'performance_setting.disk_cache_path': str(''),
    'performance_setting.monitor_enabled': alwaysOff('option.no_load_shedding'),
    'performance_setting.monitor_cpu_threshold': int(90, { min: 0, max: 100 }),
    'performance_setting.monitor_memory_threshold': int(90, { min: 0, max: 100 }),
    'performance_setting.monitor_disk_threshold': int(95, { min: 0, max: 100 }),
    // Model deployment tab (io.net).
    'model_deployment.ionet.enabled': alwaysOff('feature.deployments_unavailable'),
    'model_deployment.ionet.api_key': str('', true),
  } satisfies Record<string, OptionDef<unknown>>;
}

/**
 * One setting under two names, stored once: new-api's 2026 key (left) reads and writes the value of
 * Switchyard's key (right). GET /api/option/ lists both; PUT of either changes the one stored value.
 */
export const optionAliases = {
  'checkin_setting.enabled': 'CheckInEnabled',
  'checkin_setting.min_quota': 'CheckInQuota',
  'checkin_setting.max_quota': 'CheckInMaxQuota',
} as const;
