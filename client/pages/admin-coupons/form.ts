import { useLingui } from '@lingui/react/macro';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { REDEMPTION_BATCH_MAX, REDEMPTION_DEFAULT_QUOTA } from '../../../shared/schemas/redemptions.ts';
import { renderQuota } from '../../lib/format.ts';
import type { Redemption } from './types.ts';

/** The presets of the spec (§9): $1 … $1000, in quota at the site's quota per unit. */
export const QUOTA_PRESET_UNITS = [1, 10, 50, 100, 500, 1000];

export interface RedemptionFormValues {
  name: string;
  quota: number | string;
  count: number | string;
  is_gift: boolean;
  /** Empty or -1 means unlimited. */
  max_uses: number | string;
  valid_from: string | null;
  valid_until: string | null;
  key: string;
}

export const emptyRedemption: RedemptionFormValues = {
  name: '',
  quota: REDEMPTION_DEFAULT_QUOTA,
  count: 1,
  is_gift: false,
  max_uses: '',
  valid_from: null,
  valid_until: null,
  key: '',
};

const toUnix = (v: string | null) => (v ? dayjs(v).unix() : 0);
const fromUnix = (s: number) => (s > 0 ? dayjs.unix(s).format('YYYY-MM-DD HH:mm:ss') : null);
const toInt = (v: number | string) => Math.trunc(Number(v));

export function valuesFromRow(r: Redemption): RedemptionFormValues {
  return {
    name: r.name,
    quota: r.quota,
    count: 1,
    is_gift: r.is_gift,
    max_uses: r.max_uses === -1 ? '' : r.max_uses,
    valid_from: fromUnix(r.valid_from),
    valid_until: fromUnix(r.valid_until),
    key: r.key,
  };
}

/** What the server receives: integers, unix seconds, and a name defaulting to the formatted quota on create. */
export function toInput(v: RedemptionFormValues, creating: boolean) {
  const quota = toInt(v.quota);
  const name = v.name.trim() || (creating ? renderQuota(quota) : '');
  return {
    name,
    quota,
    is_gift: v.is_gift,
    max_uses: v.max_uses === '' || toInt(v.max_uses) === -1 ? -1 : toInt(v.max_uses),
    valid_from: toUnix(v.valid_from),
    valid_until: toUnix(v.valid_until),
    count: toInt(v.count),
    key: v.key.trim() || undefined,
  };
}

/** The form's rules mirror the server's, with messages in the console's language. */
export function useRedemptionForm(creating: boolean) {
  const { t } = useLingui();
  return useForm<RedemptionFormValues>({
    mode: 'controlled',
    initialValues: emptyRedemption,
    validate: {
      name: (v) => {
        const n = [...v.trim()].length;
        if (n === 0 && creating) return null;
        return n >= 1 && n <= 20 ? null : t`The name must be 1 to 20 characters`;
      },
      quota: (v) => (Number.isInteger(Number(v)) && Number(v) > 0 ? null : t`Enter an amount greater than zero`),
      count: (v) =>
        !creating || (Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= REDEMPTION_BATCH_MAX)
          ? null
          : t`You can create 1 to 100 codes at a time`,
      max_uses: (v) =>
        v === '' || Number(v) === -1 || (Number.isInteger(Number(v)) && Number(v) >= 1)
          ? null
          : t`Enter -1 (unlimited) or a positive whole number`,
      valid_until: (v, all) => {
        const from = toUnix(all.valid_from);
        const until = toUnix(v);
        return from > 0 && until > 0 && from >= until
          ? t`The effective time must be earlier than the expiry time`
          : null;
      },
    },
  });
}

export type RedemptionForm = ReturnType<typeof useRedemptionForm>;
