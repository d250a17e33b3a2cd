import { useLingui } from '@lingui/react/macro';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { isIpOrCidr } from '../../../shared/schemas/tokens.ts';
import { quotaOfUnits } from '../../lib/format.ts';
import type { TokenRow } from './types.ts';

/** Spec §9: presets $1 … $1000, in quota at the site's quota per unit; default $1. */
export const QUOTA_PRESET_UNITS = [1, 10, 50, 100, 500, 1000];
export const BATCH_COUNTS = ['1', '10', '20', '30', '100'];

export interface TokenFormValues {
  name: string;
  remain_quota: number | string;
  unlimited_quota: boolean;
  /** 'YYYY-MM-DD HH:mm:ss', or null for never. */
  expired_at: string | null;
  count: string;
  group: string | null;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  rate_limit_enabled: boolean;
  rate_limit_period: number | string;
  rate_limit_count: number | string;
  rate_limit_success: number | string;
}

/** A new token's form; its quota is $1 at the site's quota per unit (500,000 by default). */
export const emptyToken = (): TokenFormValues => ({
  name: '',
  remain_quota: quotaOfUnits(1),
  unlimited_quota: false,
  expired_at: null,
  count: '1',
  group: null,
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: '',
  rate_limit_enabled: false,
  rate_limit_period: 60,
  rate_limit_count: 1000,
  rate_limit_success: 10,
});

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Expiry shortcuts (spec §9): never, 1 hour, 1 day, 1 month (30 days). */
export const expiryShortcut = (seconds: number | null): string | null =>
  seconds === null ? null : dayjs().add(seconds, 'second').format(FORMAT);

export function valuesFromToken(r: TokenRow): TokenFormValues {
  return {
    name: r.name,
    remain_quota: r.remain_quota,
    unlimited_quota: r.unlimited_quota,
    expired_at: r.expired_time === -1 ? null : dayjs.unix(r.expired_time).format(FORMAT),
    count: '1',
    group: r.group || null,
    model_limits_enabled: r.model_limits_enabled,
    model_limits: r.model_limits.split(',').filter(Boolean),
    allow_ips: r.allow_ips,
    rate_limit_enabled: r.rate_limit_enabled,
    rate_limit_period: r.rate_limit_period,
    rate_limit_count: r.rate_limit_count,
    rate_limit_success: r.rate_limit_success,
  };
}

const int = (v: number | string) => Math.trunc(Number(v)) || 0;

/** -1 for never; otherwise unix seconds (validation has already checked the date parses). */
const expiryOf = (v: string | null) => (v ? dayjs(v).unix() : -1);

export function toTokenInput(v: TokenFormValues) {
  return {
    name: v.name.trim(),
    remain_quota: int(v.remain_quota),
    unlimited_quota: v.unlimited_quota,
    expired_time: expiryOf(v.expired_at),
    group: v.group ?? '',
    model_limits_enabled: v.model_limits_enabled,
    model_limits: v.model_limits.join(','),
    allow_ips: v.allow_ips
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean)
      .join('\n'),
    rate_limit_enabled: v.rate_limit_enabled,
    rate_limit_period: int(v.rate_limit_period),
    rate_limit_count: int(v.rate_limit_count),
    rate_limit_success: int(v.rate_limit_success),
  };
}

export function useTokenForm() {
  const { t } = useLingui();
  return useForm<TokenFormValues>({
    mode: 'controlled',
    initialValues: emptyToken(),
    validate: {
      name: (v) => ([...v.trim()].length > 30 ? t`The name can be at most 30 characters` : null),
      expired_at: (v) => (v && !dayjs(v).isValid() ? t`Expiry time format error` : null),
      remain_quota: (v, all) => (!all.unlimited_quota && !(Number(v) >= 0) ? t`The quota cannot be negative` : null),
      allow_ips: (v) => {
        const bad = v
          .split(/[\n,]/)
          .map((s) => s.trim())
          .filter(Boolean)
          .find((ip) => !isIpOrCidr(ip));
        return bad ? t`Not an IP address or CIDR range: ${bad}` : null;
      },
      rate_limit_period: (v, all) => (all.rate_limit_enabled && !(Number(v) >= 1) ? t`At least 1 second` : null),
    },
  });
}
