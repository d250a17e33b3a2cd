import { useForm } from '@mantine/form';
import type { ConsolePlanFields } from '../../../shared/schemas/subscriptions.ts';
import type { PlanRow } from '../../lib/subscriptions.ts';

/** The drawer's values: new-api's plan fields, the quota as the integer the QuotaInput holds. */
export type PlanValues = Omit<ConsolePlanFields, 'total_amount'> & { total_amount: number | '' };

/**
 * new-api's defaults for a new plan (AddEditSubscriptionModal), except the quota (issue 39): empty,
 * to be filled in, where new-api's 0 silently meant "unlimited"; unlimited is a switch of its own.
 */
export const emptyPlan: PlanValues = {
  title: '',
  subtitle: '',
  price_amount: 0,
  currency: 'USD',
  duration_unit: 'month',
  duration_value: 1,
  custom_seconds: 0,
  enabled: true,
  sort_order: 0,
  max_purchase_per_user: 0,
  upgrade_group: '',
  total_amount: '',
  unlimited_quota: false,
  quota_reset_period: 'never',
  quota_reset_custom_seconds: 0,
  stripe_price_id: '',
  creem_product_id: '',
};

export const valuesFromPlan = (p: PlanRow): PlanValues => ({
  ...emptyPlan,
  ...p,
  duration_unit: p.duration_unit as PlanValues['duration_unit'],
  quota_reset_period: p.quota_reset_period as PlanValues['quota_reset_period'],
  // A stored 0 is new-api's "unlimited": the switch shows it, the quota field stays empty.
  total_amount: p.total_amount > 0 ? p.total_amount : '',
  unlimited_quota: p.total_amount <= 0,
});

export const toFields = (v: PlanValues): ConsolePlanFields => ({
  ...v,
  total_amount: v.unlimited_quota ? 0 : Number(v.total_amount) || 0,
});

/** The form's refusals, in the console's language (the server refuses the same plans). */
export interface PlanFormMessages {
  titleRequired: string;
  quotaRequired: string;
}

export function usePlanForm(messages: PlanFormMessages) {
  return useForm<PlanValues>({
    initialValues: emptyPlan,
    validate: {
      title: (v) => (v.trim() === '' ? messages.titleRequired : null),
      total_amount: (v, values) => (!values.unlimited_quota && !(Number(v) > 0) ? messages.quotaRequired : null),
    },
  });
}
